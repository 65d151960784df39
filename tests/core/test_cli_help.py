"""Every option and argument of the command line has help text (Go's verbs are the Go
engine's own, checked there)."""

import argparse

from mctslab import cli

OWNED_ELSEWHERE = {"go"}


def _missing(parser, prefix=""):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                if not (prefix == "" and name in OWNED_ELSEWHERE):
                    yield from _missing(sub, f"{prefix} {name}")
        elif not isinstance(action, argparse._HelpAction) and not action.help:
            yield f"mctslab{prefix} {'/'.join(action.option_strings) or action.dest}"


def test_every_option_has_help_text():
    assert list(_missing(cli.build_parser())) == []


def test_othello_match_prints_the_seed_it_drew(capsys):
    assert cli.main(["othello", "match", "--black", "standard", "--white", "random",
                     "--games", "4"]) == 0
    out = capsys.readouterr().out
    assert "(drawn; repeat with --seed " in out
    seed = out.split("repeat with --seed ")[1].split(")")[0]
    assert cli.main(["othello", "match", "--black", "standard", "--white", "random",
                     "--games", "4", "--seed", seed]) == 0
    again = capsys.readouterr().out
    assert out.splitlines()[1:] == again.splitlines()[1:]  # the same games
