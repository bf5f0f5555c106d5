#!/usr/bin/env python3
r"""A template piconform adapter, Python 3 standard library only.

It speaks the subprocess protocol of spec/PROTOCOL.md (one JSON object per line on stdin and
stdout, logs on stderr) and implements one case kind, `sanitize`: remove the unpaired UTF-16
surrogates from a string, keep the pairs, change nothing else.

    piconform run --impl "python3 adapters/example-python/adapter.py"

To port more of Pi, keep this file as the thin shell it is: add the kind to KINDS, decode its
input, call your implementation, return its output. The framing loop does not change.

THE TRAP: lone surrogates. Pi's strings are JavaScript strings, sequences of UTF-16 code units,
and may hold a high (U+D800-U+DBFF) or low (U+DC00-U+DFFF) surrogate with no partner. On the
wire they travel as JSON escapes such as "\ud83d", because UTF-8 cannot encode them. Python
copes, if you let the json module do the work in both directions:

  * json.loads turns "\ud83d" into a str holding the lone code point U+D83D (a pair of
    escapes, "\ud83d\ude00", becomes the one code point U+1F600). Nothing is lost.
  * json.dumps with ensure_ascii=True (the default) writes every non-ASCII code point as an
    escape, lone surrogates included, so the frame is plain ASCII and the surrogate goes back
    as "\ud83d".

What breaks it: ensure_ascii=False (encoding the str as UTF-8 then raises UnicodeEncodeError,
or, with errors="surrogatepass"/"replace", sends bytes that are not UTF-8 or a U+FFFD), reading
stdin as text in a non-UTF-8 locale, and "fixing" strings on the way in (errors="replace",
unicodedata.normalize, .encode("utf-8", "ignore")). An adapter must not change a string; only
the implementation under test does.
"""

import json
import sys

PROTOCOL = 1

IMPLEMENTATION = {
    "name": "example-python",
    "version": "0.1.0",
    "language": "python",
    "kinds": ["sanitize"],
    "apis": [],
    # The Pi release lines it follows; sanitizing is the same in both.
    "dialects": ["0.80", "1.6"],
}


def log(*args):
    """Logs go to stderr: the runner saves them to a file and never parses them."""
    print("example-python:", *args, file=sys.stderr, flush=True)


# ---- the implementation ------------------------------------------------------------------


def is_high(ch):
    return "\ud800" <= ch <= "\udbff"


def is_low(ch):
    return "\udc00" <= ch <= "\udfff"


def sanitize_surrogates(text):
    """Drop every unpaired surrogate; keep everything else, pairs included.

    json.loads already joins escaped pairs into one code point, so any surrogate left in a str
    is normally lone. A high followed directly by a low is still kept as a pair, so the function
    is right for any str, however it was built.
    """
    out = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if is_high(ch) and i + 1 < n and is_low(text[i + 1]):
            out.append(ch + text[i + 1])
            i += 2
            continue
        if not (is_high(ch) or is_low(ch)):
            out.append(ch)
        i += 1
    return "".join(out)


# ---- one case: the only place that knows about kinds -------------------------------------


class Skip(Exception):
    """The adapter chooses not to run a case (answered with a skip frame)."""


def run_sanitize(inp):
    text = inp.get("text")
    if not isinstance(text, str):
        # Pi calls text.replace, which only a string has: it throws a TypeError, and the case
        # expects that failure as a result (PROTOCOL.md, "Expected failures").
        return {"throws": {"category": "type-error", "message": f"text is {type(text).__name__}, not a string"}}
    return {"text": sanitize_surrogates(text)}


# kind -> function from the case's input to its output. Grow the adapter here (and in
# IMPLEMENTATION["kinds"]): "convert", "normalize", "cost", "wire" are described in PROTOCOL.md.
KINDS = {
    "sanitize": run_sanitize,
}


def handle(kind, inp):
    """One case in, one answer out: ("result", output) | ("skip", reason) | ("error", message).

    Pure: no I/O, so it is easy to unit-test without the runner.
    """
    fn = KINDS.get(kind)
    if fn is None:
        # The runner never sends a kind that hello did not list; be polite anyway.
        return "skip", f"kind {kind!r} is not implemented"
    try:
        return "result", fn(inp if isinstance(inp, dict) else {})
    except Skip as e:
        return "skip", str(e)
    except Exception as e:  # the implementation failed: report it, keep serving
        return "error", f"{type(e).__name__}: {e}"


# ---- the framing loop --------------------------------------------------------------------


def send(frame):
    # ensure_ascii=True: lone surrogates leave as "\udXXX" escapes (see the top of the file).
    # One line per frame (JSON escapes newlines), flushed at once: the runner waits for it.
    sys.stdout.write(json.dumps(frame, ensure_ascii=True, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def main():
    # Read bytes and decode UTF-8 ourselves, whatever the locale says. Split on "\n" only.
    for raw in sys.stdin.buffer:
        line = raw.decode("utf-8").strip()
        if not line:
            continue
        try:
            # json.loads keeps lone surrogates: "\udc00" becomes the code point U+DC00 in a str.
            frame = json.loads(line)
        except ValueError as e:
            log(f"ignoring a line that is not JSON: {e}")
            continue
        if not isinstance(frame, dict):
            log("ignoring a frame that is not an object")
            continue

        ftype = frame.get("type")
        if ftype == "hello":
            if frame.get("protocol") != PROTOCOL:
                log(f"runner speaks protocol {frame.get('protocol')}, this adapter {PROTOCOL}")
            send({"type": "hello", "protocol": PROTOCOL, "implementation": IMPLEMENTATION})
        elif ftype == "run":
            seq = frame.get("seq")
            case = frame.get("case") or {}
            answer, value = handle(case.get("kind"), case.get("input"))
            if answer == "result":
                send({"type": "result", "seq": seq, "output": value})
            elif answer == "skip":
                send({"type": "skip", "seq": seq, "reason": value})
            else:
                log(f"{case.get('id')}: {value}")
                send({"type": "error", "seq": seq, "message": value})
        elif ftype == "bye":
            return
        else:
            message = f"unknown frame type {ftype!r}"
            log(message)
            if "seq" in frame:
                send({"type": "error", "seq": frame["seq"], "message": message})


if __name__ == "__main__":
    main()
