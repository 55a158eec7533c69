"""Near-duplicates: realistic pairs that must be caught, and pairs of distinct skills that must not."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from skillfiles import write_skill

from edgar_min.layout import Layout
from edgar_min.learning.similarity import (
    THRESHOLD,
    NearDuplicate,
    SimilarityIndex,
    name_key,
    procedure_of,
    skill_words,
)
from edgar_min.learning.writer import Draft, Provenance, Target, write_learned


def body(procedure: str, when: str = "When the task below comes up.") -> str:
    """A learned skill's four sections around a procedure."""
    return (
        f"## When to use\n\n{when}\n\n## Procedure\n\n{procedure}\n\n"
        "## Pitfalls\n\n- Do not skip the last step.\n\n## Verification\n\nThe declared check passes.\n"
    )


# (name, description, procedure): the same job written twice, in other words.
DUPLICATES = [
    (
        (
            "pin-bump-with-lockfile",
            "Bump a dependency pin and refresh the lock file so the test suite passes.",
            (
                "1. Change the version pin in pyproject.toml.\n"
                "2. Regenerate the lock file with the project's lock command.\n"
                "3. Run the test suite and fix any import errors."
            ),
        ),
        (
            "upgrade-dependency-and-relock",
            "Upgrade a pinned dependency version and regenerate the lockfile before running the tests.",
            (
                "1. Edit the pinned version of the package in pyproject.toml.\n"
                "2. Re-lock: run the lock command so the lockfile matches.\n"
                "3. Run the tests; fix import errors the upgrade caused."
            ),
        ),
    ),
    (
        (
            "fix-flaky-test-by-seeding",
            "Make a flaky test deterministic by seeding the random number generator.",
            (
                "1. Rerun the failing test a few times to confirm it is flaky.\n"
                "2. Find where random values are drawn.\n"
                "3. Seed the generator in a fixture.\n"
                "4. Run the test repeatedly to check it is stable."
            ),
        ),
        (
            "stabilise-flaky-random-test",
            "Stabilise a test that fails intermittently because of unseeded randomness.",
            (
                "1. Run the test several times to confirm it fails intermittently.\n"
                "2. Locate the random calls.\n"
                "3. Add a fixture that seeds the random generator.\n"
                "4. Repeat the test runs to confirm it is stable."
            ),
        ),
    ),
    (
        (
            "resolve-git-merge-conflict",
            "Resolve a git merge conflict and finish the merge with the tests passing.",
            (
                "1. Run git status to list conflicted files.\n"
                "2. Open each file and resolve the conflict markers, keeping both intended changes.\n"
                "3. git add the resolved files.\n"
                "4. Run the tests.\n"
                "5. git commit to conclude the merge."
            ),
        ),
        (
            "finish-merge-with-conflicts",
            "Finish a git merge that stopped on conflicts, keeping both sides' changes.",
            (
                "1. List the conflicted files with git status.\n"
                "2. Edit each conflicted file, remove the markers and keep both changes.\n"
                "3. Stage the files with git add.\n"
                "4. Run the test suite.\n"
                "5. Commit to complete the merge."
            ),
        ),
    ),
    (
        (
            "add-database-migration",
            "Add a schema migration for a new column and apply it to the local database.",
            (
                "1. Generate a new migration file with the migration tool.\n"
                "2. Add the column in the upgrade step and drop it in the downgrade step.\n"
                "3. Apply the migration to the local database.\n"
                "4. Run the tests that touch the model."
            ),
        ),
        (
            "create-schema-migration-new-column",
            "Create a database migration that adds a column, then apply it locally.",
            (
                "1. Use the migration tool to generate a migration.\n"
                "2. Write the upgrade to add the column and the downgrade to drop it.\n"
                "3. Run the migration against the local database.\n"
                "4. Run the model's tests."
            ),
        ),
    ),
    (
        (
            "rebuild-docker-image-after-dependency-change",
            "Rebuild the Docker image when dependencies change so the container has them.",
            (
                "1. Update the requirements file.\n"
                "2. Run docker build with --no-cache for the dependency layer.\n"
                "3. Start the container and run the smoke test."
            ),
        ),
        (
            "docker-rebuild-on-new-requirements",
            "Rebuild the container image after editing requirements so new packages are installed.",
            (
                "1. Edit the requirements file.\n"
                "2. docker build without cache so the dependency layer is rebuilt.\n"
                "3. Run the container and the smoke test."
            ),
        ),
    ),
    (
        (
            "regenerate-api-client",
            "Regenerate the API client from the OpenAPI spec after the spec changes.",
            (
                "1. Pull the latest openapi.yaml.\n"
                "2. Run the client generator.\n"
                "3. Fix call sites whose signatures changed.\n"
                "4. Run the type checker and the tests."
            ),
        ),
        (
            "update-generated-client-from-openapi",
            "Update the generated API client when the OpenAPI spec has changed.",
            (
                "1. Fetch the new openapi.yaml.\n"
                "2. Run the code generator for the client.\n"
                "3. Update call sites for changed signatures.\n"
                "4. Run type checks and tests."
            ),
        ),
    ),
]

# Skills of the same field that do different jobs.
DISTINCT = [
    (
        (
            "pin-bump-with-lockfile",
            "Bump a dependency pin and refresh the lock file so the test suite passes.",
            (
                "1. Change the version pin in pyproject.toml.\n"
                "2. Regenerate the lock file with the project's lock command.\n"
                "3. Run the test suite and fix any import errors."
            ),
        ),
        (
            "remove-unused-dependency",
            "Remove a dependency the code no longer imports and refresh the lock file.",
            (
                "1. Search the code for imports of the package.\n"
                "2. Delete it from pyproject.toml.\n"
                "3. Regenerate the lock file.\n"
                "4. Run the test suite."
            ),
        ),
    ),
    (
        (
            "fix-flaky-test-by-seeding",
            "Make a flaky test deterministic by seeding the random number generator.",
            (
                "1. Rerun the failing test a few times to confirm it is flaky.\n"
                "2. Find where random values are drawn.\n"
                "3. Seed the generator in a fixture.\n"
                "4. Run the test repeatedly to check it is stable."
            ),
        ),
        (
            "fix-flaky-test-timeout",
            "Fix a flaky test that times out waiting for a server to start.",
            (
                "1. Rerun the test to see the timeout.\n"
                "2. Replace the fixed sleep with a readiness poll on the port.\n"
                "3. Raise the overall timeout for slow machines.\n"
                "4. Run the test repeatedly to check it is stable."
            ),
        ),
    ),
    (
        (
            "resolve-git-merge-conflict",
            "Resolve a git merge conflict and finish the merge with the tests passing.",
            (
                "1. Run git status to list conflicted files.\n"
                "2. Open each file and resolve the conflict markers, keeping both intended changes.\n"
                "3. git add the resolved files.\n"
                "4. Run the tests.\n"
                "5. git commit to conclude the merge."
            ),
        ),
        (
            "rebase-feature-branch",
            "Rebase a feature branch onto main and push it.",
            (
                "1. git fetch origin.\n"
                "2. git rebase origin/main.\n"
                "3. Fix conflicts, git add and git rebase --continue.\n"
                "4. Run the tests.\n"
                "5. git push --force-with-lease."
            ),
        ),
    ),
    (
        (
            "add-database-migration",
            "Add a schema migration for a new column and apply it to the local database.",
            (
                "1. Generate a new migration file with the migration tool.\n"
                "2. Add the column in the upgrade step and drop it in the downgrade step.\n"
                "3. Apply the migration to the local database.\n"
                "4. Run the tests that touch the model."
            ),
        ),
        (
            "restore-database-backup",
            "Restore the local database from the latest backup file.",
            (
                "1. Stop the app.\n"
                "2. Drop the local database.\n"
                "3. Load the newest dump with the restore tool.\n"
                "4. Start the app and check the data."
            ),
        ),
    ),
    (
        (
            "rebuild-docker-image-after-dependency-change",
            "Rebuild the Docker image when dependencies change so the container has them.",
            (
                "1. Update the requirements file.\n"
                "2. Run docker build with --no-cache for the dependency layer.\n"
                "3. Start the container and run the smoke test."
            ),
        ),
        (
            "shrink-docker-image",
            "Make the Docker image smaller with a multi-stage build.",
            (
                "1. Add a build stage that installs build tools.\n"
                "2. Copy only the built wheel into a slim runtime stage.\n"
                "3. docker build and compare the image size.\n"
                "4. Run the smoke test."
            ),
        ),
    ),
    (
        ("pin-bump", "Bump a version pin.", "1. Change the pin.\n2. Run the tests."),
        (
            "pin-python-version",
            "Pin the Python version the project runs on.",
            "1. Write .python-version.\n2. Update the CI matrix.\n3. Run the tests.",
        ),
    ),
    (
        (
            "regenerate-api-client",
            "Regenerate the API client from the OpenAPI spec after the spec changes.",
            (
                "1. Pull the latest openapi.yaml.\n"
                "2. Run the client generator.\n"
                "3. Fix call sites whose signatures changed.\n"
                "4. Run the type checker and the tests."
            ),
        ),
        (
            "write-openapi-spec-for-endpoint",
            "Document a new HTTP endpoint in the OpenAPI spec.",
            (
                "1. Add the path and method to openapi.yaml.\n"
                "2. Describe the request and response schemas.\n"
                "3. Run the spec linter.\n"
                "4. Regenerate the docs site."
            ),
        ),
    ),
    (
        (
            "run-tests-in-parallel",
            "Speed up the test suite by running it in parallel with pytest-xdist.",
            (
                "1. Add pytest-xdist to the dev dependencies.\n"
                "2. Run pytest -n auto.\n"
                "3. Fix tests that share state between workers."
            ),
        ),
        (
            "run-single-test",
            "Run a single failing test with verbose output to see why it fails.",
            (
                "1. Copy the test's node id from the failure.\n"
                "2. Run pytest with that id and -vv.\n"
                "3. Read the assertion diff."
            ),
        ),
    ),
]


def score(a, b) -> float:
    x, y = skill_words(a[0], a[1], body(a[2])), skill_words(b[0], b[1], body(b[2]))
    return len(x & y) / len(x | y)


@pytest.mark.parametrize(("a", "b"), DUPLICATES, ids=[f"{a[0]}~{b[0]}" for a, b in DUPLICATES])
def test_the_same_procedure_in_other_words_is_caught(a, b):
    index = SimilarityIndex()
    index.add(a[0], a[1], body(a[2]))
    match = index.check(b[0], b[1], body(b[2]))
    assert match is not None
    assert match.existing == a[0]
    assert "words in common" in match.reason


@pytest.mark.parametrize(("a", "b"), DISTINCT, ids=[f"{a[0]}!{b[0]}" for a, b in DISTINCT])
def test_distinct_skills_of_the_same_field_are_not_caught(a, b):
    index = SimilarityIndex()
    index.add(a[0], a[1], body(a[2]))
    assert index.check(b[0], b[1], body(b[2])) is None


def test_the_threshold_sits_in_the_gap_the_pairs_show():
    """The documented figures: duplicates 0.38-0.76, distinct pairs 0.33 at most."""
    dup = [score(a, b) for a, b in DUPLICATES]
    distinct = [score(a, b) for a, b in DISTINCT]
    assert max(distinct) < THRESHOLD <= min(dup)
    assert round(min(dup), 2) == 0.38
    assert round(max(distinct), 2) == 0.33


@pytest.mark.parametrize(
    ("existing", "new"),
    [
        ("pin-bump", "bump-pin"),
        ("pin-bump", "pinbump"),
        ("bump-pin", "pinbump"),
        ("pinbump", "bump-pin"),
        ("pin-bump", "pin-bumps"),
        ("pin-bump", "pin-bump"),
        ("refresh-lock-file", "lock-file-refresh"),
    ],
)
def test_a_name_spelled_another_way_is_caught_whatever_the_text(existing, new):
    index = SimilarityIndex()
    index.add(existing, "Bump a version pin.", body("1. Change the pin.\n2. Run the tests."))
    match = index.check(new, "Something else entirely about cooking rice.", body("1. Boil water."))
    assert match is not None
    assert (match.existing, match.score) == (existing, 1.0)


@pytest.mark.parametrize(
    ("existing", "new"), [("pin-bump", "pin-python"), ("pin-bump", "bump"), ("a-b-c", "abd")]
)
def test_names_that_only_share_a_part_are_not_variants(existing, new):
    index = SimilarityIndex()
    index.add(existing, "Bump a version pin.", body("1. Change the pin."))
    assert index.check(new, "Boil rice for dinner.", body("1. Boil water.\n2. Add rice.")) is None


def test_name_key_and_procedure_extraction():
    assert name_key("pin-bumps") == name_key("bump-pin")
    assert procedure_of(body("1. Do it.")).strip() == "1. Do it."
    # A person's skill without the four sections is compared by its whole body.
    assert procedure_of("Just prose about pins.") == "Just prose about pins."


def test_an_empty_index_and_a_wordless_skill_match_nothing():
    assert SimilarityIndex().check("x", "", "") is None
    index = SimilarityIndex()
    index.add("pin-bump", "Bump a pin.", body("1. Change the pin."))
    assert index.check("zz", "", "") is None


@pytest.fixture
def layout(tmp_path):
    root = tmp_path / "proj"
    root.mkdir()
    return Layout(root, tmp_path / "home")


def test_the_writer_refuses_a_near_duplicate_of_a_persons_skill_naming_it(layout):
    a, b = DUPLICATES[0]
    write_skill(layout.skills, a[0], a[1], body(a[2]))
    with pytest.raises(NearDuplicate) as caught:
        write_learned(layout, Draft(b[0], b[1], body(b[2])), Provenance("s-1", ("long",)), Target("proposal"))
    assert caught.value.existing == a[0]
    assert f"a near-duplicate of the existing skill {a[0]}" in caught.value.message
    assert not Path(layout.proposals).exists()


def test_the_writer_allows_a_distinct_skill_and_a_patch(layout):
    a, b = DISTINCT[0]
    write_skill(layout.skills, a[0], a[1], body(a[2]))
    path = write_learned(
        layout, Draft(b[0], b[1], body(b[2])), Provenance("s-1", ("long",)), Target("learned")
    )
    assert os.path.isfile(path)
    # A patch to the same learned skill is not a duplicate of itself.
    write_learned(
        layout,
        Draft(b[0], b[1], body(b[2] + "\n5. Push.")),
        Provenance("s-2", ("long",)),
        Target("learned", patch=True),
    )


def test_one_new_skill_against_ten_thousand_is_checked_without_a_full_scan_of_each():
    """Correctness at size (timings are in bench/bench_lifecycle.py): the planted duplicate is found."""
    index = SimilarityIndex()
    for i in range(10_000):
        index.add(
            f"skill-{i}",
            f"Task number {i} about area {i % 97}.",
            body(f"1. Step w{i} x{i % 13}.\n2. Step y{i}."),
        )
    a, b = DUPLICATES[2]
    index.add(a[0], a[1], body(a[2]))
    match = index.check(b[0], b[1], body(b[2]))
    assert match is not None
    assert match.existing == a[0]
