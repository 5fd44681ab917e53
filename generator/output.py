"""Writing outputs atomically: a failed write never leaves a half-written file in place of a good
one, and it fails in one line that names the path and the system's reason.

Every output deckpress writes (PDFs, reports, previews, images, logs, schemas, a new game's
files) goes through :func:`write_atomic`.
"""
from __future__ import annotations

import errno
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

#: The system's reasons, as people say them.
_REASONS = {
    errno.EROFS: "the output folder is read-only (a read-only file system)",
    errno.EACCES: "the output folder is read-only for you (permission denied)",
    errno.EPERM: "the output folder is read-only for you (permission denied)",
    errno.ENOSPC: "no space left on device",
    errno.EDQUOT: "disk quota exceeded",
    errno.EFBIG: "the file is larger than this file system or your file size limit (ulimit -f) allows",
    errno.EISDIR: "a folder stands where the file should go",
    errno.ENAMETOOLONG: "the file name is too long",
    errno.ELOOP: "too many symbolic links in the path",
}
#: Errors that mean a file stands where a folder is needed (``--out`` naming a file, or a path under one).
_FILE_IN_THE_WAY = (errno.ENOTDIR, errno.EEXIST)


class OutputError(Exception):
    """An output could not be written; ``str()`` is one line: the path and the reason.  The
    previous file at that path, if any, is untouched and no partial file is left."""

    def __init__(self, path: Path, reason: str):
        self.path, self.reason = Path(path), reason
        super().__init__(f"cannot write {path}: {reason}")


def reason_of(exc: OSError, path: Path | None = None) -> str:
    """The system's reason for ``exc`` in words; for a file in the way of the folder ``path``
    needs, which file that is (``out/afile is a file, not a folder``)."""
    if exc.errno in _FILE_IN_THE_WAY:
        blocking = _file_in_the_way(path) if path is not None else None
        return f"{blocking} is a file, not a folder" if blocking else "a file stands where a folder is needed"
    reason = _REASONS.get(exc.errno) if exc.errno is not None else None
    return reason if reason is not None else (exc.strerror or str(exc)).lower()


def _file_in_the_way(path: Path) -> Path | None:
    """The nearest folder ``path`` needs that exists but is not a folder, if any."""
    for folder in reversed(path.parents):
        if os.path.lexists(folder) and not os.path.isdir(folder):  # these never raise
            return folder
    return None


@contextmanager
def writing(path: Path) -> Iterator[None]:
    """Turn an ``OSError`` raised in the block, while writing ``path`` (a file or a folder), into
    :class:`OutputError` for ``path``.

    Raises:
        OutputError: the block raised ``OSError``.
    """
    try:
        yield
    except OSError as exc:
        raise OutputError(path, reason_of(exc, Path(path))) from None


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` via a temporary file in the same folder (created if needed) and
    an atomic rename; the file is readable by all (0644).

    Raises:
        OutputError: the folder cannot be created or written (read-only, full, a file in the
            way); the old file, if any, is untouched and the temporary file removed.  Any other
            exception (Ctrl-C too) removes the temporary file as well and is raised as it is.
    """
    path = Path(path)
    with writing(path):
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with writing(path):
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            os.chmod(tmp, 0o644)
            os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
