"""The known answers of the lang-examples programs (answers.json, the one
list of them) and the check of what a run printed."""
import json
import os

ANSWERS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "answers.json")


def load(path=ANSWERS):
    """{name: (args, answers)} in the order of the list."""
    with open(path) as f:
        return {e["name"]: (e["args"], e["answers"]) for e in json.load(f)["examples"]}


def wrong(stdout, answers):
    """None if every line printed holds one of the answers and each answer is
    on as many lines as the others (once per process that prints them), else
    what is wrong."""
    lines = [l for l in stdout.splitlines() if l.strip()]
    if not lines:
        return "it printed nothing"
    counts = [sum(a in l for l in lines) for a in answers]
    stray = [l for l in lines if not any(a in l for a in answers)]
    if stray:
        return "line %r holds none of %r" % (stray[0], answers)
    if len(set(counts)) != 1:
        return "the answers %r are on %r lines" % (answers, counts)
    return None
