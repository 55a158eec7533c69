"""Records: what the package's types promise, the same as the standard dataclasses they stand in for."""

from __future__ import annotations

import copy
import dataclasses
import json
import os
import pickle
import subprocess
import sys
from pathlib import Path
from typing import ClassVar

import pytest

from edgar_min import records
from edgar_min.records import FrozenRecordError, asdict, dataclass, field, fields, replace

REPO = Path(__file__).resolve().parents[1]


@dataclass(frozen=True, slots=True)
class Point:
    """A module-level record, so pickle can find it by name."""

    x: int
    y: int = 0
    tags: tuple[str, ...] = field(default=(), metadata={"doc": "labels"})


class ClassVarious:
    """A type whose name only starts like ClassVar's."""


# Every behaviour below is checked on the standard module too: the package relies on records
# acting as dataclasses do, so swapping the import back must change nothing it uses.
IMPLEMENTATIONS = pytest.mark.parametrize("impl", [records, dataclasses], ids=["records", "dataclasses"])


def _pin(impl):
    @impl.dataclass(frozen=True, slots=True)
    class Pin:
        package: str
        version: str = "latest"
        notes: list[str] = impl.field(default_factory=list)
        limits: dict[str, int] = impl.field(default_factory=dict, metadata={"min": 1})

    return Pin


@IMPLEMENTATIONS
def test_equal_records_are_equal_and_hash_alike(impl):
    pin = _pin(impl)
    a, b = pin("httpx", "0.27"), pin("httpx", "0.27")
    assert a == b
    assert a is not b
    assert a != pin("httpx", "0.28")
    assert Point(1, 2) == Point(x=1, y=2)
    assert hash(Point(1, 2, ("a",))) == hash(Point(1, 2, ("a",)))
    assert len({Point(1, 2), Point(1, 2), Point(2, 1)}) == 2


@IMPLEMENTATIONS
def test_records_of_two_classes_are_never_equal_even_with_the_same_values(impl):
    @impl.dataclass(frozen=True, slots=True)
    class A:
        x: int

    @impl.dataclass(frozen=True, slots=True)
    class B:
        x: int

    assert A(1) != B(1)
    assert A(1) != (1,)


@IMPLEMENTATIONS
def test_a_frozen_record_refuses_assignment_and_deletion_and_keeps_its_value(impl):
    pin = _pin(impl)("httpx")
    with pytest.raises(AttributeError, match="version"):
        pin.version = "0.28"
    with pytest.raises(AttributeError):
        del pin.package
    assert (pin.package, pin.version) == ("httpx", "latest")


def test_the_frozen_refusal_is_its_own_attribute_error_for_any_name():
    with pytest.raises(FrozenRecordError, match=r"cannot assign to field 'x': a Point is frozen"):
        Point(1).x = 2
    # A standard frozen, slotted dataclass fails here with super()'s TypeError (3.11-3.13).
    with pytest.raises(
        FrozenRecordError, match=r"cannot assign to 'other' \(not a field\): a Point is frozen"
    ):
        Point(1).other = 2
    assert issubclass(FrozenRecordError, AttributeError)


@IMPLEMENTATIONS
def test_a_record_has_slots_and_no_dict(impl):
    pin = _pin(impl)
    assert pin.__slots__ == ("package", "version", "notes", "limits")
    assert not hasattr(pin("httpx"), "__dict__")


@IMPLEMENTATIONS
def test_replace_gives_a_new_record_and_leaves_the_old_one(impl):
    pin = _pin(impl)
    old = pin("httpx", "0.27", ["pinned by hand"])
    new = impl.replace(old, version="0.28")
    assert (new.package, new.version, new.notes) == ("httpx", "0.28", ["pinned by hand"])
    assert old.version == "0.27"
    with pytest.raises(TypeError):
        impl.replace(old, colour="red")
    with pytest.raises(TypeError):
        impl.replace({"version": "1"}, version="2")


@IMPLEMENTATIONS
def test_replace_runs_the_check_in_post_init_again(impl):
    @impl.dataclass(frozen=True, slots=True)
    class Span:
        start: int
        end: int

        def __post_init__(self):
            if self.end < self.start:
                raise ValueError(f"a span may not end ({self.end}) before it starts ({self.start})")

    span = Span(1, 5)
    with pytest.raises(ValueError, match=r"end \(0\) before it starts \(1\)"):
        impl.replace(span, end=0)
    with pytest.raises(ValueError, match="before it starts"):
        Span(3, 2)


@IMPLEMENTATIONS
def test_defaults_apply_and_each_record_gets_its_own_factory_made_value(impl):
    pin = _pin(impl)
    a, b = pin("httpx"), pin("pytest")
    assert (a.version, a.notes, a.limits) == ("latest", [], {})
    a.notes.append("only mine")
    assert b.notes == []
    given = ["shared on purpose"]
    assert pin("x", notes=given).notes is given


@IMPLEMENTATIONS
def test_fields_come_in_annotation_order_with_their_annotation_text_and_metadata(impl):
    pin = _pin(impl)
    got = [(f.name, f.type, dict(f.metadata)) for f in impl.fields(pin)]
    assert got == [
        ("package", "str", {}),
        ("version", "str", {}),
        ("notes", "list[str]", {}),
        ("limits", "dict[str, int]", {"min": 1}),
    ]
    assert [f.name for f in impl.fields(pin("httpx"))] == ["package", "version", "notes", "limits"]
    with pytest.raises(TypeError):
        impl.fields(object)
    with pytest.raises(TypeError):
        impl.fields(fields)


@IMPLEMENTATIONS
def test_a_missing_or_unknown_argument_is_a_type_error_naming_it(impl):
    pin = _pin(impl)
    with pytest.raises(
        TypeError, match=r"Pin\.__init__\(\) missing 1 required positional argument: 'package'"
    ):
        pin()
    with pytest.raises(TypeError, match="'colour'"):
        pin("httpx", colour="red")
    with pytest.raises(TypeError, match="takes from 2 to 5 positional arguments but 6 were given"):
        pin("a", "b", [], {}, "extra")


@IMPLEMENTATIONS
def test_repr_names_the_fields_and_leaves_out_the_hidden_one(impl):
    @impl.dataclass(frozen=True, slots=True)
    class Endpoint:
        base_url: str
        key: str = impl.field(repr=False)

    endpoint = Endpoint("http://127.0.0.1:8080/v1", "sk-secret-value")
    assert repr(endpoint).endswith("Endpoint(base_url='http://127.0.0.1:8080/v1')")
    assert "sk-secret" not in repr(endpoint)
    assert "sk-secret" not in repr([endpoint])


@IMPLEMENTATIONS
def test_class_variables_are_not_fields(impl):
    @impl.dataclass(frozen=True, slots=True)
    class Limits:
        kinds: ClassVar[tuple[str, ...]] = ("a", "b")
        size: int = 1
        various: ClassVarious | None = None  # a field, whatever its type's name starts with

    assert [f.name for f in impl.fields(Limits)] == ["size", "various"]
    assert Limits.kinds == ("a", "b")
    assert Limits(3).size == 3


@IMPLEMENTATIONS
def test_a_record_matches_positional_patterns_in_field_order(impl):
    pin = _pin(impl)
    match pin("httpx", "0.27"):
        case pin(name, "0.27"):
            matched = name
        case _:
            matched = None
    assert matched == "httpx"


@IMPLEMENTATIONS
def test_a_mutable_record_takes_assignment_and_is_not_hashable(impl):
    @impl.dataclass(slots=True)
    class Tally:
        seen: int = 0
        names: list[str] = impl.field(default_factory=list)

    tally = Tally()
    tally.seen += 2
    tally.names.append("a")
    assert tally == Tally(2, ["a"])
    with pytest.raises(TypeError, match="unhashable"):
        hash(tally)
    with pytest.raises(AttributeError):
        tally.other = 1


@IMPLEMENTATIONS
def test_a_plain_subclass_of_a_record_still_builds_compares_and_refuses(impl):
    pin = _pin(impl)

    class Sly(pin):
        __slots__ = ()

    sly = Sly("httpx")
    assert sly.version == "latest"
    assert sly != pin("httpx")  # another class
    assert sly == Sly("httpx")
    with pytest.raises(AttributeError):
        sly.version = "1"


def test_zero_argument_super_and_properties_work_in_a_record():
    # Not checked on the standard module: its slotted classes break zero-argument super() (3.11-3.13).
    @dataclass(frozen=True, slots=True)
    class Named:
        name: str

        @property
        def shout(self):
            return self.name.upper()

        def __str__(self):
            return "named " + super().__str__().split("(")[0]

    assert Named("x").shout == "X"
    assert str(Named("x")).startswith("named ")


@IMPLEMENTATIONS
def test_asdict_converts_nested_records_and_containers(impl):
    @impl.dataclass(frozen=True, slots=True)
    class Point:
        x: int
        y: int = 0
        tags: tuple[str, ...] = ()

    @impl.dataclass(frozen=True, slots=True)
    class Row:
        point: object
        points: tuple[object, ...]
        by_name: dict[str, object]
        note: str | None = None

    row = Row(Point(1), (Point(2, 3),), {"a": [Point(4)]})
    assert impl.asdict(row) == {
        "point": {"x": 1, "y": 0, "tags": ()},
        "points": ({"x": 2, "y": 3, "tags": ()},),
        "by_name": {"a": [{"x": 4, "y": 0, "tags": ()}]},
        "note": None,
    }
    assert json.loads(json.dumps(impl.asdict(Point(5, tags=("t",))))) == {"x": 5, "y": 0, "tags": ["t"]}
    with pytest.raises(TypeError):
        impl.asdict({"x": 1})


def test_a_record_survives_pickle_and_copy():
    point = Point(1, 2, ("a",))
    assert pickle.loads(pickle.dumps(point)) == point  # noqa: S301 - our own bytes
    assert copy.copy(point) == point
    assert copy.deepcopy([point]) == [point]


def test_shapes_the_package_never_means_are_refused_when_the_class_is_made():
    with pytest.raises(TypeError, match="always has __slots__"):

        @dataclass(frozen=True)
        class NoSlots:
            x: int

    with pytest.raises(ValueError, match="use default_factory"):

        @dataclass(frozen=True, slots=True)
        class Shared:
            items: list[int] = []  # noqa: RUF012 - the mistake under test

    with pytest.raises(TypeError, match=r"field 'b' of \S*Order has no default but follows one that has"):

        @dataclass(frozen=True, slots=True)
        class Order:
            a: int = 0
            b: int  # type: ignore[misc]

    with pytest.raises(TypeError, match="may not inherit from another record"):

        @dataclass(frozen=True, slots=True)
        class Point3(Point):
            z: int = 0

    with pytest.raises(ValueError, match="not both"):
        field(default=1, default_factory=int)


def test_the_signature_shows_the_defaults_and_the_factories():
    import inspect

    @dataclass(slots=True)
    class Tally:
        seen: int = 0
        names: list[str] = field(default_factory=list)

    assert str(inspect.signature(Tally)) == "(seen=0, names=<factory>)"
    assert str(inspect.signature(Point)) == "(x, y=0, tags=())"


def test_replace_and_asdict_on_the_package_types():
    from edgar_min.learning.rejected import Rejected
    from edgar_min.learning.turn import parse_turn

    turn = parse_turn({"prompt": "bump the httpx pin", "tools": ["shell"], "verification": "failed"})
    checked = replace(turn, verification="passed")
    assert (turn.verification, checked.verification, checked.tools) == ("failed", "passed", ("shell",))
    row = Rejected("i", "t", "long", "s-1", None, "too short", "reply", cut=False)
    assert asdict(row) == {
        "id": "i",
        "time": "t",
        "trigger": "long",
        "session": "s-1",
        "skill": None,
        "sentence": "too short",
        "reply": "reply",
        "cut": False,
    }


# The per-turn commands, run as a harness runs them, must not pay for the standard machinery.
HEAVY = ("dataclasses", "inspect", "ast")


def _imports(pyz: Path, root: Path, *args: str, stdin: str = "") -> tuple[subprocess.CompletedProcess, set]:
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-X", "importtime", str(pyz), *args],
        cwd=root, input=stdin, capture_output=True, text=True, timeout=60, env=dict(os.environ),
    )  # fmt: skip
    names = {
        line.rpartition("|")[2].strip()
        for line in done.stderr.splitlines()
        if line.startswith("import time:")
    }
    assert "edgar_min.config" in names, done.stderr[-2000:]  # the command got as far as its config
    return done, names


def test_learn_on_a_turn_where_nothing_fires_imports_no_dataclass_machinery(pyz, tmp_path):
    (tmp_path / "turn.json").write_text(
        '{"prompt": "list the files", "tools": ["shell"], "verification": "passed"}'
    )
    done, names = _imports(pyz, tmp_path, "learn", "turn.json", "--session", "bench-1")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "nothing to learn" in done.stdout
    assert sorted(names & set(HEAVY)) == []


def test_listing_doctor_and_the_prompt_hook_import_no_dataclass_machinery(pyz, tmp_path):
    skill = tmp_path / ".edgar" / "skills" / "pin-bump" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text(
        "---\nname: pin-bump\ndescription: Bump a dependency pin and its lock file.\n---\nProse.\n"
    )
    listed, names = _imports(pyz, tmp_path, "skills", "list")
    assert listed.returncode == 0
    assert "pin-bump" in listed.stdout
    assert sorted(names & set(HEAVY)) == []
    doctor, names = _imports(pyz, tmp_path, "doctor")
    assert doctor.returncode == 0
    assert doctor.stdout.rstrip().endswith("healthy")
    assert sorted(names & set(HEAVY)) == []
    payload = json.dumps({"session_id": "s-1", "prompt": "bump the httpx pin", "cwd": str(tmp_path)})
    hook, names = _imports(pyz, tmp_path, "hook", "user-prompt-submit", stdin=payload)
    assert hook.returncode == 0
    assert "- `pin-bump` (" in json.loads(hook.stdout)["hookSpecificOutput"]["additionalContext"]
    assert sorted(names & set(HEAVY)) == []


def test_every_record_type_of_the_package_is_one_of_ours():
    """`replace`, `fields` and `asdict` refuse a standard dataclass: no module may define one."""
    import importlib

    package = REPO / "edgar_min"
    names = sorted(
        ".".join(p.relative_to(REPO).with_suffix("").parts).removesuffix(".__init__")
        for p in package.rglob("*.py")
        if p.name != "__main__.py"
    )
    standard, ours = [], 0
    for name in names:
        module = importlib.import_module(name)
        for value in vars(module).values():
            if isinstance(value, type) and value.__module__ == name:
                if dataclasses.is_dataclass(value):
                    standard.append(f"{name}.{value.__qualname__}")
                ours += hasattr(value, "__record_fields__")
    assert standard == []
    assert ours >= 60  # Turn, Layout, the config sections, the SemIf types, ...


def test_the_first_records_and_the_later_ones_are_built_alike():
    import inspect

    from edgar_min import records

    made = []

    @dataclass(frozen=True, slots=True)
    class Job:
        name: str
        tries: int = 3
        tags: list[str] = field(default_factory=list)

        def __post_init__(self):
            made.append(self.name)

    def compiled():
        return not Job.__init__.__code__.co_flags & inspect.CO_VARARGS

    assert not compiled()  # a class that builds one record compiles nothing
    calls = [
        (("a",), {}),
        (("b", 5), {}),
        ((), {"name": "c", "tags": ["x"]}),
        (("d",), {"tries": 1}),
    ]
    before = [Job(*args, **kwargs) for args, kwargs in calls]
    for _ in range(records.COMPILE_AFTER):
        Job("filler")
    assert compiled()
    after = [Job(*args, **kwargs) for args, kwargs in calls]
    assert before == after
    assert [(j.name, j.tries, j.tags) for j in before] == [
        ("a", 3, []),
        ("b", 5, []),
        ("c", 3, ["x"]),
        ("d", 1, []),
    ]
    assert before[0].tags is not before[3].tags  # the factory is called for each record
    assert made[:4] == ["a", "b", "c", "d"]
    with pytest.raises(FrozenRecordError):
        before[0].name = "z"


def test_a_mistaken_first_call_gets_pythons_own_sentence():
    @dataclass(frozen=True, slots=True)
    class Job:
        name: str
        tries: int = 3

    with pytest.raises(TypeError, match=r"got multiple values for argument 'name'"):
        Job("a", name="b")
    with pytest.raises(TypeError, match=r"got an unexpected keyword argument 'colour'"):
        Job("a", colour="red")
    assert Job("a") == Job(name="a", tries=3)
