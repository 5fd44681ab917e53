"""Exit codes of the ``deckpress`` command, one meaning each (listed in docs/commands.md).

=====  ==========================================================================================
code   meaning
=====  ==========================================================================================
0      success; for ``check``: the verdict is *accept*
1      content errors (validate, build, simulate), an illegal event (replay); ``check``: *review*
2      bad command-line use, nothing to check; ``check``: *reject* (the variant is at fault)
3      a file that cannot be read at all (replay's log, check's variant, the --content folder), or a
       path the system refuses to look at (a name too long for the file system)
4      an output could not be written (read-only folder, no space left, a file in the way):
       the previous output is kept
5      could not finish: a memory or time limit deckpress runs under was reached (not the
       content's fault); the message says what to change
70     internal error: a bug in deckpress, not in the user's files (the traceback is shown with
       ``DECKPRESS_TRACEBACK=1``); sysexits.h's EX_SOFTWARE
130    interrupted (Ctrl-C)
=====  ==========================================================================================
"""
from __future__ import annotations

OK = 0
CONTENT = 1
USAGE = 2
UNREADABLE = 3
OUTPUT_FAILED = 4
COULD_NOT_FINISH = 5
INTERNAL = 70
INTERRUPTED = 130
