"""The argument types every domain's command line uses."""

import argparse

import pytest

from mctslab.core import cliargs


@pytest.mark.parametrize("kind, good, bad", [
    (cliargs.positive_int, {"1": 1, "250": 250}, ["0", "-3", "2.5", "x"]),
    (cliargs.non_negative_int, {"0": 0, "7": 7}, ["-1", "x"]),
    (cliargs.seed, {"0": 0, "20261122": 20261122}, ["-1", "1e3"]),
    (cliargs.int_range(5, 25), {"5": 5, "25": 25}, ["4", "26"]),
    (cliargs.positive_float, {"0.5": 0.5, "3": 3.0}, ["0", "-1", "inf", "nan"]),
    (cliargs.non_negative_float, {"0": 0.0, "2.5": 2.5}, ["-0.1", "inf"]),
    (cliargs.finite_float, {"-6.5": -6.5}, ["inf", "x"]),
    (cliargs.probability, {"0": 0.0, "1": 1.0, "0.1": 0.1}, ["1.5", "-0.1"]),
])
def test_types_accept_and_refuse(kind, good, bad):
    for text, value in good.items():
        assert kind(text) == value
    for text in bad:
        with pytest.raises(argparse.ArgumentTypeError):
            kind(text)


def test_out_is_a_folder_in_every_command():
    """``--out`` is an output folder wherever it appears; a file gets an option of its own."""
    from mctslab.cli import build_parser

    def walk(parser, trail):
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    yield from walk(sub, trail + (name,))
            elif "--out" in action.option_strings:
                yield trail, action

    found = list(walk(build_parser(), ()))
    assert found, "no command has --out"
    for trail, action in found:
        if trail[0] == "go":  # the Go lead adopts cliargs.add_out in go/cli.py
            continue
        assert not action.required and action.metavar == "DIR", " ".join(trail)
        assert "folder" in (action.help or ""), " ".join(trail)


def test_domain_command_lines_check_counts_and_seeds(capsys):
    from mctslab.cli import main

    for argv in (["othello", "match", "--black", "random", "--white", "random", "--games", "0"],
                 ["sudoku", "generate", "--playouts", "-5", "--puzzle-file", "x"],
                 ["tsp", "solve", "eil51", "--method", "sa", "--seed", "-1"],
                 ["manyfaces", "gtp", "--size", "3"]):
        with pytest.raises(SystemExit) as stop:
            main(argv)
        assert stop.value.code == 2
        assert "error: argument" in capsys.readouterr().err
