#!/usr/bin/env python3
"""Generate the man pages and shell completions of Atelier's tools from their flag definitions.

Usage: gen-docs.py BIN OUTDIR

For every executable product named in Package.swift whose binary exists in BIN, writes
  OUTDIR/man/<tool>.1                       from `BIN/<tool> --experimental-dump-help`
  OUTDIR/completions/<tool>.bash            from `BIN/<tool> --generate-completion-script bash`
  OUTDIR/completions/_<tool>                ... zsh (the name zsh wants in site-functions)
  OUTDIR/completions/<tool>.fish            ... fish

Flags are declared once, with swift-argument-parser; this script only renders what the tools
say about themselves, so help, man pages and completions cannot drift apart. The output is
deterministic (no dates, no paths of the build machine): regenerating gives identical bytes,
which is what Tests/EndToEndTests/DocsAndExamplesTests.swift checks. man/atelier.7 is written
by hand and is not touched here.

Python 3 standard library only.
"""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Entries swift-argument-parser adds to every command by itself. The dump has no flag saying
# so; they are recognised by their names. --help and --version are documented by hand below.
BUILTIN_LONG_NAMES = {"help", "version", "experimental-dump-help", "generate-completion-script"}
BUILTIN_SUBCOMMANDS = {"help"}

# The exit codes every tool shares (DESIGN.md, "Command-line conventions"; sysexits.h).
EXIT_CODES = [
    (0, "Success."),
    (1, "Nothing matched: the query selected no records (as with grep)."),
    (64, "Usage error: an unknown option, a missing or invalid argument, a bad "
         "--where expression."),
    (65, "Bad input data: malformed JSON or CSV, a field with a wrong value, a reference to a "
         "record that is not in the catalog, a damaged or foreign catalog or backup archive. "
         "The message names the input, the line and the field."),
    (66, "An input is missing: a file that cannot be opened, or no catalog yet."),
    (69, "A peer or service is unavailable: no receiver answered, the connection was refused, "
         "the receiver is busy with another batch, the peer speaks another protocol version "
         "(update the older side), or the peer stopped the transfer."),
    (70, "Internal error (a bug: please report it)."),
    (73, "The output cannot be created: the catalog, its directory or the -o file cannot be "
         "written, or the disk is full (\"no space left on device writing PATH\", whichever tool "
         "noticed it); for atl-recv, also a file it would have to overwrite."),
    (74, "Input/output error while reading or writing; for a transfer, a damaged, tampered or "
         "cut-off stream (nothing damaged is kept)."),
    (75, "Temporary failure: the catalog is busy (another atl-import holds it for longer "
         "than 30 seconds), or a transfer timed out; try again."),
    (77, "Permission or authentication denied: for atl-send and atl-recv, the two sides typed "
         "different pairing codes (nothing was transferred)."),
]

# Long example lines are wrapped with shell line continuations to fit an 80-column terminal.
EXAMPLE_WIDTH = 70


def fail(message):
    sys.stderr.write(f"gen-docs.py: {message}\n")
    sys.exit(1)


def tools_in_package():
    """Executable products named atl-* in Package.swift, in the order they are declared."""
    text = (ROOT / "Package.swift").read_text(encoding="utf-8")
    return re.findall(r'\.executable\(\s*name:\s*"(atl-[A-Za-z0-9_-]+)"', text)


def run(binary, *args):
    try:
        result = subprocess.run([str(binary), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                check=False, env=clean_environment())
    except OSError as error:
        fail(f"cannot run {binary}: {error}")
    if result.returncode != 0:
        fail(f"{binary} {' '.join(args)} exited {result.returncode}: "
             f"{result.stderr.decode('utf-8', 'replace').strip()}")
    return result.stdout.decode("utf-8")


def clean_environment():
    """The environment for the tools: nothing from the user's catalog, terminal or locale."""
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "TMPDIR")}
    env["LC_ALL"] = "C.UTF-8"
    env["NO_COLOR"] = "1"
    env["TERM"] = "dumb"
    return env


# ---------------------------------------------------------------------------------------------
# roff


def escape(text):
    """Text as roff: backslashes, hyphens (so options copy as ASCII minus signs) and anything
    beyond ASCII as a named Unicode escape, which every formatter reads whatever the locale."""
    out = []
    for ch in text:
        if ch == "\\":
            out.append("\\e")
        elif ch == "-":
            out.append("\\-")
        elif ord(ch) > 126:
            out.append(f"\\[u{ord(ch):04X}]")
        else:
            out.append(ch)
    return "".join(out)


def line(text):
    """A text line: a leading dot or apostrophe would be read as a request."""
    if text.startswith((".", "'")):
        return "\\&" + text
    return text


def sentences(text):
    """One sentence per input line, as roff wants (it then spaces sentences properly)."""
    return [s for s in re.split(r"(?<=[.!?])\s+(?=[A-Z'\"(])", text.strip()) if s]


class Inline:
    """Marks up option names in running text: bold, as man pages show what is typed."""

    def __init__(self, option_names):
        names = sorted(option_names, key=len, reverse=True)
        self.pattern = re.compile(
            r"(?<![\w-])(" + "|".join(re.escape(n) for n in names) + r")(?![\w-])") if names else None

    def __call__(self, text):
        if self.pattern is None:
            return escape(text)
        out = []
        last = 0
        for match in self.pattern.finditer(text):
            out.append(escape(text[last:match.start()]))
            out.append("\\fB" + escape(match.group(1)) + "\\fR")
            last = match.end()
        out.append(escape(text[last:]))
        return "".join(out)


def paragraph(text, inline):
    return [line(inline(s)) for s in sentences(text)]


def shell_words(command):
    """Splits a command at spaces outside quotes, keeping the quotes (for wrapping only)."""
    words, current, quote = [], "", None
    for ch in command:
        if quote:
            current += ch
            if ch == quote:
                quote = None
        elif ch in "'\"":
            current += ch
            quote = ch
        elif ch == " ":
            if current:
                words.append(current)
            current = ""
        else:
            current += ch
    if current:
        words.append(current)
    return words


def is_option_word(word):
    return word.startswith("-") and len(word) > 1


def wrap_command(command, width=EXAMPLE_WIDTH):
    """A command too long for the page as several lines joined by backslash-newline: one line
    per stage of a pipeline, and a stage still too long broken before an option (so an option
    stays with its value). Continuation lines are indented."""
    if len(command) <= width:
        return [command]
    words = shell_words(command)
    stages = [[]]
    for word in words:
        if word == "|":
            stages.append(["|"])
        else:
            stages[-1].append(word)
    lines = []
    for stage in stages:
        indent = "" if not lines else "    "
        current = indent + stage[0]
        for i, word in enumerate(stage[1:], start=1):
            j = i + 1
            while j < len(stage) and not is_option_word(stage[j]):
                j += 1
            chunk = " ".join(stage[i:j])
            last = j == len(stage) and stage is stages[-1]
            room = width if last else width - 2  # leave room for " \\"
            if is_option_word(word) and len(current) + 1 + len(chunk) > room:
                lines.append(current)
                current = "    " + word
            else:
                current += " " + word
        lines.append(current)
    return [l + " \\" for l in lines[:-1]] + [lines[-1]]


# ---------------------------------------------------------------------------------------------
# The command as swift-argument-parser describes it


def is_builtin(argument):
    preferred = argument.get("preferredName") or {}
    return argument.get("kind") in ("flag", "option") and preferred.get("name") in BUILTIN_LONG_NAMES


def display_names(argument):
    """Option names, short ones first, as `-o, --output`."""
    names = argument.get("names") or []
    order = {"short": 0, "longWithSingleDash": 1, "long": 2}
    names = sorted(names, key=lambda n: order.get(n["kind"], 3))
    prefixes = {"short": "-", "long": "--", "longWithSingleDash": "-"}
    return [prefixes[n["kind"]] + n["name"] for n in names]


def choices(argument):
    values = argument.get("allValues")
    if not values:
        values = ((argument.get("completionKind") or {}).get("list") or {}).get("values")
    return values or []


def parse_discussion(discussion):
    """The discussion as (heading, blocks): prose paragraphs under heading None, and blocks
    under an upper-case heading line whose body is indented (EXAMPLES). Each block is a list
    of lines; prose paragraphs are joined into one string."""
    sections = [[None, []]]
    for block in re.split(r"\n\s*\n", discussion.strip("\n")):
        lines = block.split("\n")
        head = lines[0].strip()
        if re.fullmatch(r"[A-Z][A-Z ]+", head) and all(l.startswith("  ") for l in lines[1:] if l.strip()):
            sections.append([head, [l[2:] for l in lines[1:] if l.strip()]])
        elif sections[-1][0] is None:
            sections[-1][1].append(" ".join(l.strip() for l in lines))
        else:
            # Prose after an indented section belongs to the description, not to it.
            sections[0][1].append(" ".join(l.strip() for l in lines))
    return sections


def synopsis_item(argument):
    """One element of the synopsis, like `[\\fB\\-\\-where\\fR \\fIcondition\\fR]...`."""
    value = argument.get("valueName") or "value"
    kind = argument["kind"]
    if kind == "positional":
        text = "\\fI" + escape(value) + "\\fR"
        if argument.get("isRepeating"):
            text += "\\ .\\|.\\|."
        return ("[" + text + "]") if argument.get("isOptional") else text
    preferred = argument.get("preferredName")
    if preferred:
        name = ("--" if preferred["kind"] == "long" else "-") + preferred["name"]
    else:
        name = display_names(argument)[-1]
    text = "\\fB" + escape(name) + "\\fR"
    if kind == "option":
        text += "\\ \\fI" + escape(value) + "\\fR"
    if argument.get("isOptional"):
        text = "[" + text + "]"
    if argument.get("isRepeating") and kind != "positional":
        text += "\\ .\\|.\\|."
    return text


def option_tag(argument):
    value = argument.get("valueName") or "value"
    if argument["kind"] == "positional":
        tag = "\\fI" + escape(value) + "\\fR"
        if argument.get("isRepeating"):
            tag += "\\ .\\|.\\|."
        return tag
    tag = ", ".join("\\fB" + escape(n) + "\\fR" for n in display_names(argument))
    if argument["kind"] == "option":
        tag += " \\fI" + escape(value) + "\\fR"
    return tag


def option_body(argument, inline):
    out = []
    abstract = (argument.get("abstract") or "").strip()
    discussion = (argument.get("discussion") or "").strip()
    if abstract:
        out += paragraph(abstract, inline)
    if discussion:
        for para in re.split(r"\n\s*\n", discussion):
            out += [".IP"] + paragraph(" ".join(para.split()), inline)
    facts = []
    values = choices(argument)
    described = argument.get("allValueDescriptions") or {}
    if values and not described:
        facts.append("Values: " + ", ".join("\\fB" + escape(v) + "\\fR" for v in values) + ".")
    default = argument.get("defaultValue")
    if default is not None and default != "":
        facts.append("Default: \\fB" + escape(default) + "\\fR.")
    if argument.get("isRepeating") and argument["kind"] != "positional" and "repeat" not in abstract.lower():
        facts.append("May be given more than once.")
    if facts:
        out += ([".IP"] if out else []) + [line(f) for f in facts]
    if values and described:
        # Values that come with their own help: a nested list.
        out += [".RS"]
        for v in values:
            out += [".TP", "\\fB" + escape(v) + "\\fR"] + paragraph(described.get(v, ""), inline)
        out += [".RE"]
    return out


# ---------------------------------------------------------------------------------------------
# The page


def man_page(tool, info, version, all_tools, option_names):
    command = info["command"]
    arguments = [a for a in command.get("arguments") or [] if not is_builtin(a) and a.get("shouldDisplay", True)]
    builtins = {(a.get("preferredName") or {}).get("name") for a in command.get("arguments") or [] if is_builtin(a)}
    positionals = [a for a in arguments if a["kind"] == "positional"]
    options = [a for a in arguments if a["kind"] != "positional"]
    subcommands = [c for c in command.get("subcommands") or []
                   if c["commandName"] not in BUILTIN_SUBCOMMANDS and c.get("shouldDisplay", True)]
    inline = Inline(option_names)
    abstract = (command.get("abstract") or "").strip()
    sections = parse_discussion(command.get("discussion") or "")
    has_db = any(a.get("preferredName", {}).get("name") == "db" for a in options)

    out = [
        f'.\\" {tool}(1): generated by scripts/gen-docs.py from `{tool} --experimental-dump-help`.',
        f'.\\" Do not edit: change the flag definitions in Sources/{tool}, then run `make docs`.',
        f'.TH {escape(tool.upper())} 1 "" "Atelier {escape(version)}" "Atelier Manual"',
        # Ragged right, no hyphenation: the text is full of option names, paths and JSON.
        ".ad l",
        ".nr HY 0",
        ".nh",
        ".SH NAME",
    ]
    summary = abstract.rstrip(".")
    if len(summary) > 1 and summary[0].isupper() and summary[1].islower():
        summary = summary[0].lower() + summary[1:]
    out.append(f"{escape(tool)} \\- {escape(summary)}")

    # SYNOPSIS
    out += [".SH SYNOPSIS", ".SY " + escape(tool)]
    out += [line(synopsis_item(a)) for a in arguments]
    out.append(".YS")
    for name in ("help", "version"):
        if name in builtins:
            out += [".SY " + escape(tool), "\\fB\\-\\-" + name + "\\fR", ".YS"]
    for sub in subcommands:
        out += [".SY " + escape(tool), "\\fB" + escape(sub["commandName"]) + "\\fR", "[\\fIoptions\\fR]", ".YS"]

    # DESCRIPTION
    out.append(".SH DESCRIPTION")
    first = True
    for para in ([abstract] if abstract else []) + sections[0][1]:
        if not first:
            out.append(".PP")
        out += paragraph(para, inline)
        first = False

    # OPTIONS
    out.append(".SH OPTIONS")
    if positionals:
        out.append(".SS Arguments")
        for a in positionals:
            out += [".TP", option_tag(a)] + option_body(a, inline)
        out.append(".SS Options")
    for a in options:
        out += [".TP", option_tag(a)] + option_body(a, inline)
    if "help" in builtins:
        out += [".TP", "\\fB\\-h\\fR, \\fB\\-\\-help\\fR", "Show the usage, the options and the examples, and exit."]
    if "version" in builtins:
        out += [".TP", "\\fB\\-\\-version\\fR", "Print the version of " + escape(tool) + " and exit."]

    # Headed blocks of the discussion: EXAMPLES, and any other the help text grows.
    for heading, body in sections[1:]:
        out.append(".SH " + escape(heading))
        for entry in body:
            if heading == "EXAMPLES":
                out += [".PP", ".EX"] + [line(escape(l)) for l in wrap_command(entry.strip())] + [".EE"]
            else:
                out += [".PP"] + paragraph(entry.strip(), inline)

    # EXIT STATUS
    out.append(".SH EXIT STATUS")
    greplike = "Exits 1" in (command.get("discussion") or "")
    for code, meaning in EXIT_CODES:
        if code == 1 and not greplike:
            continue
        out += [".TP", f"\\fB{code}\\fR"] + paragraph(meaning, inline)
    out += [".PP", "A closed pipe on standard output (as in \\fB" + escape(tool) + " .\\|.\\|. | head \\-1\\fR) "
            "ends the tool quietly with status 0."]

    # ENVIRONMENT and FILES
    out.append(".SH ENVIRONMENT")
    if has_db:
        out += [
            ".TP", "\\fBATELIER_DB\\fR",
            "The catalog file to use when \\fB\\-\\-db\\fR is not given.",
            ".TP", "\\fBXDG_DATA_HOME\\fR",
            "The catalog is \\fI$XDG_DATA_HOME/atelier/catalog.sqlite\\fR when neither \\fB\\-\\-db\\fR "
            "nor \\fBATELIER_DB\\fR is given.",
            "When it is unset or not an absolute path, \\fI$HOME/.local/share\\fR is used instead.",
        ]
    out += [
        ".TP", "\\fBNO_COLOR\\fR",
        "When set (to anything), no colour is written to the terminal.",
        "Atelier's tools never colour their output: data goes to standard output as plain NDJSON "
        "and diagnostics to standard error as plain text.",
    ]
    if has_db:
        out += [
            ".SH FILES",
            ".TP", "\\fI$XDG_DATA_HOME/atelier/catalog.sqlite\\fR",
            "The default catalog (\\fI~/.local/share/atelier/catalog.sqlite\\fR), an SQLite database "
            "in WAL mode, so \\fIcatalog.sqlite\\-wal\\fR and \\fIcatalog.sqlite\\-shm\\fR sit beside it.",
            "See \\fBatelier\\fR(7).",
        ]

    # SEE ALSO
    out.append(".SH SEE ALSO")
    others = sorted(t for t in all_tools if t != tool)
    refs = [(".BR", escape(t), "(1)") for t in others] + [(".BR", "atelier", "(7)")]
    for i, (macro, name, section) in enumerate(refs):
        out.append(f"{macro} {name} {section}{',' if i < len(refs) - 1 else ''}")
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------------------------


def normalise_completion(script, binary_dir):
    """Completion scripts must not mention the machine they were made on."""
    for prefix in sorted({str(binary_dir) + "/", os.path.realpath(binary_dir) + "/", str(ROOT) + "/"},
                         key=len, reverse=True):
        script = script.replace(prefix, "")
    return script


def write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)


def main(argv):
    if len(argv) != 3:
        sys.stderr.write("usage: gen-docs.py BIN OUTDIR\n")
        return 64
    bin_dir = Path(argv[1]).absolute()
    out_dir = Path(argv[2])
    tools = [t for t in tools_in_package() if os.access(bin_dir / t, os.X_OK)]
    if not tools:
        fail(f"no atl-* executable from Package.swift in {bin_dir}; build first (swift build)")
    infos = {t: json.loads(run(bin_dir / t, "--experimental-dump-help")) for t in tools}
    option_names = set()
    for info in infos.values():
        for a in info["command"].get("arguments") or []:
            if a["kind"] != "positional" and not is_builtin(a):
                option_names.update(display_names(a))
    for tool in tools:
        version = run(bin_dir / tool, "--version").strip().splitlines()[0]
        write(out_dir / "man" / f"{tool}.1", man_page(tool, infos[tool], version, tools, option_names))
        targets = {
            "bash": out_dir / "completions" / f"{tool}.bash",
            "zsh": out_dir / "completions" / f"_{tool}",
            "fish": out_dir / "completions" / f"{tool}.fish",
        }
        for shell, target in targets.items():
            script = run(bin_dir / tool, "--generate-completion-script", shell)
            write(target, normalise_completion(script, bin_dir))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
