"""How often words appear in a catalogue of public skills: the background of the routing word weights.

In a project with five skills, document frequencies say little: every word
looks rare. Adding these counts (from the 288 public skills in
`bench/data/suggest-skills.json`, words as `routing.words` makes them, kept
when at least two skills use them) lets a common word such as "file" weigh
little and a telling one such as "gif" weigh much, whatever the project's
size. Regenerate with `python3 bench/bench_suggest.py --write-background`.
"""

from __future__ import annotations

__all__ = ["COUNTS", "DOCUMENTS", "background_count", "background_counts"]

DOCUMENTS = 288
COUNTS = """
0:5 1:8 10:4 100:2 16:2 2:9 20:3 25:2 2d:3 3:7 3d:4 4:5 5:3 6:3 7:2 8:2 9:2 abstract:2 academic:8
acceler:2 accelerat:2 accept:2 access:19 accessibility:3 accuracy:2 accurat:2 achiev:2 across:23
action:5 actionabl:7 activ:2 activat:3 activity:2 actual:3 adapt:2 add:11 address:5 addresssanitiz:2
advanc:8 advisory:2 afl:2 afl+:4 against:6 agent:8 agentic:3 agnostic:2 ai:17 alert:2 algorithm:13
align:4 alpha:2 alphafold:2 alternativ:5 alway:13 analys:3 analysis:61 analytic:2 analyz:38
android:2 anim:3 animat:2 annot:7 annotat:2 answ:3 answer:2 anthropic:3 anyth:2 apa:3 api:22 apis:8
app:17 applic:10 applicabl:3 apply:7 approach:5 approv:2 approval:2 architectur:8 archiv:5 area:3
arithmetic:4 array:4 arrow:2 art:4 articl:3 artifact:4 artist:2 arxiv:2 ask:30 assertion:2 assess:15
assign:2 assist:3 assistant:2 assumption:3 astronomy:2 atac:2 atla:2 attach:2 attack:11 audio:4
audit:32 auditor:3 augment:2 auth:2 authentic:6 authenticat:2 author:6 auto:2 autom:19 automat:20
automatical:8 availability:2 availabl:5 avoid:3 awar:3 b:2 back:2 backend:4 bad:2 bam:4 banana:3
bar:3 bas:25 batch:8 bcf:2 becaus:4 bed:3 behavior:5 behavioral:2 behind:2 benchmark:4 benefit:4
best:40 bet:4 between:12 beyond:4 bia:2 binary:3 bind:4 bio:6 bioinformatic:6 biological:6 biology:5
biomedical:3 biorxiv:2 bit:7 black:2 blast:9 block:5 blockchain:2 blog:2 boolean:2 both:4 bound:2
boundary:7 box:3 brainstorm:4 branch:8 brand:2 brevity:2 broad:2 brows:3 buf:2 bug:11 build:33
built:3 bulk:4 business:2 c:10 c#:2 c++:9 cairo:2 calcul:2 calculat:3 calendar:2 call:12 campaign:2
canc:2 candidat:5 captur:3 car:4 cas:9 casual:2 categoriz:3 category:2 caus:2 cd:4 cell:12 chain:4
challeng:3 chang:11 channel:5 character:2 characteristic:2 chat:5 check:26 checklist:3 chembl:2
chemistry:4 choic:6 choos:10 chrom:2 ci:7 circuit:3 cit:12 claim:2 clang:2 clarify:2 class:4
classific:5 claud:14 clean:5 cleanup:3 cli:9 client:5 clinical:5 cloud:9 cluster:6 coach:2 cod:63
codebas:17 codeql:4 codex:6 cognitiv:2 collaborativ:3 collection:2 color:4 colorblind:2 column:2
com:12 combin:3 command:3 commit:8 common:4 communic:4 company:4 compar:10 comparison:6 compatibl:3
competitiv:2 compil:4 compl:2 complet:5 complex:7 complexity:13 complianc:7 component:8 composio:12
composition:3 compound:3 comprehensiv:22 compress:5 comput:20 computational:6 concept:4 concis:2
concret:2 condition:2 conduct:6 conferenc:4 confidenc:2 configur:8 confirm:2 conflict:2 conform:2
connect:4 consensus:2 consid:2 consistent:3 consort:3 constant:3 constraint:4 contact:2 contain:2
content:12 context:15 contract:8 control:7 controll:2 convention:2 convers:4 conversion:5 convert:13
coordinat:2 copy:5 copyright:2 cor:9 correction:3 corruption:2 cosmwasm:2 count:5 cov:11 cover:3
coverag:14 cpu:2 cre:2 creat:64 creativ:5 creator:5 criteria:2 critical:9 cross:6 crypto:6
cryptographic:8 css:4 csv:5 ct:2 curat:5 current:20 custom:17 cutof:2 cytometry:2 d:3 dangerous:2
darpa:2 dask:3 data:64 databas:10 datafram:5 dataset:18 de:2 debug:10 decid:4 decimal:2 decision:9
deck:2 decrypt:2 deep:12 default:5 defin:3 definition:2 delegat:2 delet:3 deliberat:2 deliverabl:2
depend:2 dependency:9 deploy:8 deprioritiz:2 deriv:2 describ:3 description:3 descriptor:4 design:21
detail:6 detect:17 detection:10 develop:19 devic:2 diagnos:2 diagnostic:2 diagram:9 dif:6
different:5 differential:6 digital:3 dimension:2 dimensional:2 dimensionality:3 direct:3 direction:3
directory:2 discover:3 discovery:7 discussion:2 diseas:5 distanc:2 distribut:4 distribution:3
divergenc:2 divers:5 dna:2 doc:4 dock:2 docu:13 document:20 docx:2 doe:2 doesn:2 domain:6 don:4
dos:3 download:6 draft:6 draw:3 drift:2 driv:2 driven:5 drug:11 dur:4 dynamic:5 e:7 each:4 ear:2
earth:2 easy:2 ecdh:2 ecg:2 ecosystem:2 edg:4 edit:10 educational:2 eeg:2 effect:2 effectiveness:2
efficient:5 effort:2 elaborat:2 ele:2 electronic:2 eln:2 elsewher:2 email:5 embed:2 enabl:3 encod:2
encounter:2 encrypt:2 endpoint:2 energy:3 enforc:3 engag:3 engineer:5 ensembl:2 ensur:6 entity:2
entry:9 entrypoint:7 enumer:2 enumerat:2 environ:5 equ:4 error:7 especial:3 establish:5 estimat:2
etc:9 evalu:5 evaluat:9 even:5 event:8 every:2 evidenc:10 evolutionary:2 exampl:3 exchang:2 execut:5
execution:8 exercis:2 exist:22 expand:2 experi:6 experimental:6 expert:2 explain:2 explan:2
explicit:6 explor:11 exploratory:2 export:6 expos:4 expression:8 extension:5 extensiv:3 external:10
extract:18 extraction:3 fac:4 fail:4 failur:2 fair:2 fals:3 fami:2 faq:2 fast:8 fasta:3 fastq:2
fda:3 featur:19 featuriz:2 federal:2 feedback:7 feel:3 fetch:3 ffi:2 field:5 figur:3 fil:38 fill:3
filt:2 filter:4 financial:3 find:30 fingerprint:4 first:19 fit:5 fix:10 flow:14 flowchart:3 fluid:2
flux:2 focus:4 fold:3 follow:3 font:2 forc:3 forecast:2 forest:2 forg:2 fork:2 form:3 formal:4
format:26 formul:2 formula:3 forward:3 found:3 framework:18 fre:5 frontend:4 full:13 function:17
functionality:3 fuzz:15 g:5 gap:5 gas:2 gat:6 gather:5 gemini:5 gen:9 gener:10 general:6 generat:29
generativ:3 generator:4 genomic:8 genotoxic:2 geometric:2 geopanda:2 geospatial:3 get:5 gh:4 git:6
github:8 gmail:2 gnn:4 goal:3 googl:19 gpu:6 gpus:2 grad:2 gradient:2 grain:3 grant:3 graph:18
growth:3 guarant:2 guid:16 guidanc:4 guidelin:10 h:3 habit:3 handl:11 happen:2 hardwar:5 harness:5
hazard:2 head:3 health:2 healthcar:2 heart:2 heatmap:4 help:5 high:18 highlight:2 hipa:2 histolab:2
history:4 hook:2 host:3 hotspot:4 hour:3 hpc:2 html:6 human:2 hunt:6 hypothes:2 hypothesis:4 ibm:2
idea:2 ideal:5 identific:3 identify:21 iii:2 imag:14 impact:3 impl:5 implement:27 import:5
important:2 improv:13 incident:2 includ:39 incorrect:2 increas:2 incremental:2 independent:3 index:5
individual:2 industry:2 inf:2 inferenc:6 info:3 inform:11 infrastructur:3 initial:2 input:12
insert:2 insight:5 inspect:4 install:4 integ:2 integr:30 integrat:11 interact:5 interaction:2
interactiv:5 interfac:6 internal:3 interpret:4 interval:4 interview:2 investigat:5 invoc:2 invok:2
involv:12 io:4 isolat:2 issu:20 item:2 iterat:2 iterativ:3 java:3 javascript:3 jax:2 job:3 journal:4
js:3 json:5 jsx:2 judg:4 keep:2 keg:2 key:8 knowledg:5 known:3 kotlin:2 lab:6 land:2 langchain:2
languag:10 larg:7 latex:6 launch:3 layout:4 lazy:2 leadership:3 learn:16 legacy:3 level:7 libafl:4
libfuzz:5 library:21 licens:2 ligand:2 limit:4 lin:5 linear:3 link:5 lint:2 list:9 literatur:5 liv:2
llm:5 llvm:2 load:3 local:7 log:4 long:3 look:2 lookup:7 loop:2 loss:2 low:10 machin:9 maintain:3
major:2 mak:9 manag:19 manipul:3 manipulat:2 manual:10 manuscript:4 many:2 map:11 markdown:6
market:3 mass:2 mat:2 match:3 material:6 mathematic:2 matplotlib:4 matric:3 matrix:2 matur:2
maximiz:3 maximum:2 may:4 mcp:16 md:2 measur:5 mechanism:3 media:4 medical:5 medicin:2 medicinal:2
medium:6 meet:5 memb:2 memory:12 mention:19 merg:7 mermaid:4 messag:6 messy:2 meta:3 metabolomic:3
metadata:7 method:3 methodology:3 metric:4 microscopy:2 migr:2 migrat:2 mind:2 minimal:2 minut:2
miss:8 mistak:2 mistral:2 misus:2 mix:2 ml:15 mobil:2 mod:5 modal:3 model:32 modern:5 modific:2
modify:6 modul:4 molecul:3 molecular:10 month:2 mov:3 multi:24 multimodal:3 multipl:17 mut:7
mutant:2 n:2 nam:6 nano:3 nativ:11 natur:3 ncbi:3 need:5 neighbor:2 neighborhood:3 network:10
networkx:2 neural:6 nev:4 newick:2 newslet:2 next:4 nextflow:2 ngs:2 nih:2 nod:6 nois:2 non:5 nonc:2
normal:2 not:6 notebook:2 notific:2 notion:5 novel:3 nsf:2 numb:2 numerical:2 numpy:4 o:4 object:2
objectiv:2 observ:4 ocr:2 offic:2 official:4 ollama:2 ontology:2 open:20 openai:4 openm:2 opentron:2
oper:9 optim:9 optimiz:11 option:5 oracl:2 organ:2 organiz:5 original:2 outlin:2 output:9 overflow:4
overlap:3 overlay:2 overrid:2 packag:4 pag:10 pain:3 pair:2 palet:2 panda:4 panel:2 panic:2 pap:7
parallel:12 paramet:2 pars:13 part:2 particl:2 particular:2 partnership:2 party:5 pass:8 password:2
patch:2 path:12 pathology:3 pathway:2 patient:2 pattern:24 pca:2 pdb:3 pdf:12 peak:2 peopl:2
perform:17 performanc:13 perplexity:2 phas:3 photo:3 phylogenetic:4 physic:4 physiological:2 pick:3
piec:2 pipelin:19 pixel:3 plan:16 platform:10 plot:6 png:2 poc:2 point:9 polar:2 popul:3 port:2
position:2 positiv:3 post:9 potential:3 power:2 powerpoint:2 pptx:3 pr:5 practic:8 pre:10
precision:4 predict:3 prediction:12 pref:3 prepar:18 preprocess:5 present:7 prevent:2 preview:2
pric:2 primary:4 primitiv:2 priorit:3 prioritiz:4 privat:3 privileg:7 pro:5 probabilistic:2
problem:7 process:25 produc:17 product:3 production:7 professional:10 profil:5 program:5
programmatic:3 programmatical:2 progress:3 project:26 prompt:5 prop:5 propag:2 property:6 propos:2
proposal:4 pros:3 protein:12 proteomic:2 protocol:15 prov:3 proverif:2 provid:19 proxy:3 prs:4
public:12 publish:4 pubm:4 pull:5 pur:3 purpos:2 pv:2 python:31 pytorch:6 qc:2 quality:19 quantum:4
query:17 question:9 quick:10 r:2 rac:2 radiology:3 radius:7 ram:4 random:3 rang:2 rat:6 rath:6 raw:3
ray:2 rdkit:2 re:6 reach:3 reachabl:2 react:6 reactom:2 read:17 readiness:2 ready:8 real:5 reason:3
recent:3 recommend:8 record:4 reduction:5 ref:2 refactor:4 referenc:18 refin:5 region:3 regression:4
regulatory:5 reinforc:2 relat:4 relationship:5 releas:5 relevant:4 remot:2 remov:3 replac:3 replay:2
repo:3 report:22 repository:5 represent:2 request:16 requir:20 research:33 resourc:5 respons:5
rest:2 result:10 retriev:4 retrieval:2 return:5 review:46 rewrit:3 risk:7 rna:5 rol:2 rout:5 row:2
rub:13 ruby:3 rul:6 ruleset:2 run:35 runtim:3 rust:8 s:16 saf:4 safety:6 sal:2 sam:2 sampl:4
sandbox:2 sanitiz:2 sarif:6 sav:3 say:5 scal:10 scalabl:4 scan:13 scanpy:2 scenario:2 schedul:2
schema:15 schematic:3 scholar:4 scienc:5 scientific:26 scikit:6 scop:4 scor:6 scratch:3 screen:4
screenshot:2 script:7 scrna:2 scvi:2 sdk:6 seaborn:2 search:32 secret:4 section:3 secur:3
security:28 see:2 seed:3 seek:2 segment:2 select:3 selection:5 semantic:2 semgrep:7 send:3 sens:2
sensitiv:7 seq:7 sequenc:8 sequencediagram:2 sequential:2 serv:6 serverless:2 servic:11 sery:3
session:4 set:17 setup:6 shadcn:2 shap:3 shar:7 sheet:2 shortest:2 show:2 sid:6 sign:2 signal:7
signatur:4 significanc:2 similar:4 similarity:4 simpl:9 simul:6 singl:18 sink:3 sit:5 siz:4 skill:67
slack:5 slic:2 slid:6 slow:3 small:3 smart:11 smil:4 snakemak:2 social:3 solana:2 solidity:2
someon:2 sonar:2 sort:5 sourc:20 spac:4 spatial:3 spe:2 speak:3 spec:5 specializ:3 specific:28
specify:2 speech:2 spend:2 split:3 spreadsheet:2 sql:2 stag:2 standalon:2 standard:14 start:8
stat:13 static:8 statistic:4 statistical:5 step:6 storag:4 str:2 strategic:3 strategy:8 stratify:2
stream:2 strob:2 structur:29 structural:8 study:5 styl:11 subagent:3 subgraph:3 submission:9
submit:3 success:2 suggest:2 suit:6 summariz:2 summary:7 supervis:2 support:25 surfac:7 survey:2
survival:2 suspect:2 suspicious:2 svg:2 swift:2 synthesis:3 synthesiz:3 synthetic:2 system:22
systematic:5 systematical:4 t:7 tabl:6 tabular:3 tag:4 tailor:3 tailwind:2 taint:9 tak:4 target:16
task:41 taxonomy:2 team:5 technical:7 techniqu:5 technology:2 templat:8 tensorflow:2 test:29 text:10
therapeutic:2 therapy:2 think:5 third:4 thon:2 thread:2 threat:2 til:2 tim:22 timeout:2 tissu:4
token:9 toml:2 ton:3 tool:38 toolkit:17 torch:2 touch:3 toxicity:2 trac:4 track:13 traffic:2 trail:7
trailmark:11 train:10 trait:2 trajectory:2 transcript:2 transcription:2 transf:2 transform:7
transition:4 tre:6 treasury:2 treat:3 triag:6 trial:2 trig:22 tun:3 turn:5 two:3 typ:15 typescript:3
typography:2 ui:6 umap:2 unauthenticat:2 understand:13 unfamiliar:3 unify:2 uniprot:2 unit:5
univariat:2 unknown:3 unresolv:2 unsaf:2 updat:13 upgradeability:2 upload:4 url:6 usag:2 use:7
user:56 v2:2 valid:10 validat:6 validator:2 validity:2 valu:2 vancouv:2 variabl:2 variant:5
variational:2 vcf:4 vector:7 vendor:2 vercel:6 verific:6 verify:15 version:7 video:3 view:4 viol:2
visibility:2 visual:21 visualiz:6 vivisect:2 vulnerability:22 w:2 want:21 waterfall:2 weaudit:3
web:13 webfetch:2 whenev:13 wheth:9 whol:2 window:2 without:11 word:3 work:55 workflow:26 workload:3
workspac:4 worktr:2 world:2 writ:31 written:2 wrong:3 wsi:2 wycheproof:2 x:7 xlsx:2 y:2 youtub:2
zar:2 zero:2
"""


_COUNTS: tuple[dict[str, int], int] | None = None


def background_counts() -> tuple[dict[str, int], int]:
    """(word -> how many catalogue skills use it, how many skills the catalogue has)."""
    global _COUNTS  # noqa: PLW0603 - read once, on first use: import time is a budget
    if _COUNTS is None:
        # "word:count" pairs split in C: a loop over 1,300 of them is most of a prompt's routing.
        flat = COUNTS.replace(":", " ").split()
        _COUNTS = dict(zip(flat[::2], map(int, flat[1::2]), strict=True)), DOCUMENTS
    return _COUNTS


def background_count(word: str) -> int:
    """How many catalogue skills use `word` (0 for none), as `background_counts` says, found in
    the table without reading all of it: a prompt asks this of the few words no skill here has."""
    if not word or any(c in word for c in ": \n"):  # no table word has these: none could match
        return 0
    for before in (" ", "\n"):  # each pair follows a space or a line break
        at = COUNTS.find(f"{before}{word}:")
        if at >= 0:
            start = end = at + len(word) + 2
            while end < len(COUNTS) and COUNTS[end].isdigit():
                end += 1
            return int(COUNTS[start:end])
    return 0
