"""Writing outputs atomically: a failed write never leaves a half-written file in place of a good
one, and it fails in one line that names the path and the system's reason.

Every output deckpress writes (PDFs, reports, previews, images, logs, schemas, a new game's
files) goes through :func:`write_atomic`.
"""
from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path

#: The system's reasons, as people say them.
_REASONS = {
    errno.EROFS: "the output folder is on a read-only file system",
    errno.EACCES: "permission denied (the output folder is read-only for you)",
    errno.EPERM: "permission denied (the output folder is read-only for you)",
    errno.ENOSPC: "no space left on device",
    errno.EDQUOT: "disk quota exceeded",
    errno.ENOTDIR: "a file stands where a folder is needed",
    errno.EEXIST: "a file stands where a folder is needed",
    errno.EISDIR: "a folder stands where the file should go",
    errno.ENAMETOOLONG: "the file name is too long",
}


class OutputError(Exception):
    """An output could not be written; ``str()`` is one line: the path and the reason.  The
    previous file at that path, if any, is untouched and no partial file is left."""

    def __init__(self, path: Path, reason: str):
        self.path, self.reason = Path(path), reason
        super().__init__(f"cannot write {path}: {reason}")


def reason_of(exc: OSError) -> str:
    """The system's reason for ``exc`` in words."""
    return _REASONS.get(exc.errno, exc.strerror or str(exc))


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` via a temporary file in the same folder and an atomic rename.

    Raises:
        OutputError: the folder cannot be created or written (read-only, full, a file in the
            way); the old file, if any, is untouched and the temporary file removed.
    """
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise OutputError(path, reason_of(exc)) from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise OutputError(path, reason_of(exc)) from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
