"""Uploads: stored immutably under their content hash, then unpacked safely.

An upload is one file: a bot's single program (``bot.py``), or an archive of its folder
(``.tar``, ``.tar.gz``/``.tgz``, ``.zip``). :func:`store_upload` puts its bytes on disk
(synced) under ``uploads/<sha256>`` before the submission is acknowledged.
:func:`unpack` makes the bot's folder ``bots/<sha256>/`` from it, refusing what an archive
must not do: absolute paths, ``..``, links, devices and other special files, more than
``max_files`` entries or ``max_bytes`` unpacked (which stops archive bombs: the bytes are
counted as they are decompressed, whatever the archive's headers claim).
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import stat
import tarfile
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import IO

UPLOADS = "uploads"
BOTS = "bots"
CHUNK = 1 << 16


class UploadRejected(Exception):
    """An upload that cannot become a bot; the message says why, for its owner."""


@dataclass(frozen=True)
class UnpackLimits:
    max_files: int = 200
    max_bytes: int = 50 << 20


def sha256_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def store_upload(folder: Path, data: bytes) -> str:
    """Store ``data`` under its SHA-256 in ``folder/uploads`` (synced, then renamed into
    place: a file there is whole) and return the hash. Storing the same bytes twice keeps
    one file."""
    digest = sha256_of(data)
    where = folder / UPLOADS
    where.mkdir(parents=True, exist_ok=True)
    final = where / digest
    if final.is_file() and final.stat().st_size == len(data):
        return digest
    handle, partial = tempfile.mkstemp(dir=where, prefix=".part-")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(partial, 0o444)
        os.replace(partial, final)
    finally:
        if os.path.exists(partial):
            os.unlink(partial)
    _sync_folder(where)
    return digest


def remove_partial_uploads(folder: Path) -> None:
    """Remove uploads a killed server did not finish storing (never acknowledged)."""
    for path in (folder / UPLOADS).glob(".part-*"):
        path.unlink(missing_ok=True)
    for path in (folder / BOTS).glob(".unpacking-*"):
        shutil.rmtree(path, ignore_errors=True)


def _sync_folder(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


_SAFE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")


def safe_filename(name: str) -> str:
    """The name a single uploaded file is kept under in its folder: its base name, if that
    is a plain name; else ``bot``."""
    base = PurePosixPath(name.replace("\\", "/")).name
    return base if _SAFE_NAME.fullmatch(base) and base not in (".", "..") else "bot"


def archive_kind(data: bytes, filename: str) -> str:
    """``zip``, ``tar`` or ``file`` (a single program)."""
    if data[:4] == b"PK\x03\x04" or data[:4] == b"PK\x05\x06":
        return "zip"
    lowered = filename.lower()
    if (
        lowered.endswith((".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tar.xz"))
        or data[:2]
        in (
            b"\x1f\x8b",
            b"BZ",
        )
        or data[:6] == b"\xfd7zXZ\x00"
    ):
        return "tar"
    return "file"


def unpack(folder: Path, digest: str, filename: str, limits: UnpackLimits) -> Path:
    """The bot folder of upload ``digest`` (made from it once: ``bots/<digest>``, or
    ``bots/<digest>-<name>`` for a single file). Raises
    :class:`UploadRejected` for an archive that breaks a rule."""
    data = (folder / UPLOADS / digest).read_bytes()
    kind = archive_kind(data, filename)
    # a single program's name matters (``random.py`` is not ``bot.py``): it names its folder
    final = folder / BOTS / (digest if kind != "file" else f"{digest}-{safe_filename(filename)}")
    if final.is_dir():
        return root_of(final)
    (folder / BOTS).mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(dir=folder / BOTS, prefix=".unpacking-"))
    try:
        if kind == "zip":
            _unzip(work, data, limits)
        elif kind == "tar":
            _untar(work, folder / UPLOADS / digest, limits)
        else:
            if len(data) > limits.max_bytes:
                raise UploadRejected(f"the file is {len(data)} bytes; at most {limits.max_bytes}")
            target = work / safe_filename(filename)
            target.write_bytes(data)
            target.chmod(0o755 if data[:2] == b"#!" else 0o644)
        os.replace(work, final)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return root_of(final)


def root_of(folder: Path) -> Path:
    """An archive of one folder (``zip -r bot.zip bot/``) has its bot in that folder."""
    entries = list(folder.iterdir())
    if len(entries) == 1 and entries[0].is_dir() and not entries[0].is_symlink():
        return entries[0]
    return folder


def checked_path(name: str) -> PurePosixPath:
    """An archive entry's path, if it is a plain relative one."""
    path = PurePosixPath(name.replace("\\", "/"))
    if (
        not name
        or path.is_absolute()
        or name.startswith(("/", "\\"))
        or re.match(r"^[A-Za-z]:", name)
    ):
        raise UploadRejected(f"archive entry {name!r} has an absolute path")
    if any(part == ".." for part in path.parts):
        raise UploadRejected(f"archive entry {name!r} leaves its folder ('..')")
    if any(not part.isprintable() for part in path.parts) or "\x00" in name:
        raise UploadRejected(f"archive entry {name!r} has an unprintable name")
    return path


class _Budget:
    """Counts entries and unpacked bytes against the limits."""

    def __init__(self, limits: UnpackLimits) -> None:
        self.limits = limits
        self.files = 0
        self.bytes = 0

    def entry(self) -> None:
        self.files += 1
        if self.files > self.limits.max_files:
            raise UploadRejected(f"the archive has more than {self.limits.max_files} entries")

    def take(self, count: int) -> None:
        self.bytes += count
        if self.bytes > self.limits.max_bytes:
            raise UploadRejected(
                f"the archive unpacks to more than {self.limits.max_bytes} bytes "
                "(an archive bomb, or too large a bot)"
            )


def _write_entry(
    root: Path, path: PurePosixPath, source: IO[bytes], mode: int, budget: _Budget
) -> None:
    target = root.joinpath(*path.parts)
    target.parent.mkdir(parents=True, exist_ok=True)
    if not target.resolve().is_relative_to(root.resolve()):
        raise UploadRejected(f"archive entry {str(path)!r} leaves its folder")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
    try:
        fd = os.open(target, flags, 0o755 if mode & 0o111 else 0o644)
    except FileExistsError:
        raise UploadRejected(f"archive entry {str(path)!r} appears twice") from None
    with os.fdopen(fd, "wb") as out:
        while chunk := source.read(CHUNK):
            budget.take(len(chunk))
            out.write(chunk)


def _untar(root: Path, path: Path, limits: UnpackLimits) -> None:
    with path.open("rb") as source:
        untar_stream(root, source, limits)


def untar_stream(root: Path, source: IO[bytes], limits: UnpackLimits) -> None:
    """Unpack the tar archive (compressed or not) read from ``source`` into ``root``."""
    budget = _Budget(limits)
    try:
        with tarfile.open(fileobj=source, mode="r|*") as archive:
            for member in archive:  # streamed: a bomb is stopped as it is read
                budget.entry()
                name = checked_path(member.name)
                if member.issym() or member.islnk():
                    raise UploadRejected(f"archive entry {member.name!r} is a link")
                if member.isdir():
                    root.joinpath(*name.parts).mkdir(parents=True, exist_ok=True)
                    continue
                if not member.isfile():
                    raise UploadRejected(
                        f"archive entry {member.name!r} is a device or special file"
                    )
                if member.size > limits.max_bytes:
                    raise UploadRejected(
                        f"archive entry {member.name!r} is {member.size} bytes; "
                        f"at most {limits.max_bytes} unpacked"
                    )
                contents = archive.extractfile(member)
                assert contents is not None, "a regular file has contents"
                _write_entry(root, name, contents, member.mode, budget)
    except (tarfile.TarError, EOFError, OSError, ValueError) as exc:
        raise UploadRejected(f"not a readable archive: {exc}") from None


def _unzip(root: Path, data: bytes, limits: UnpackLimits) -> None:
    import io

    budget = _Budget(limits)
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            for info in archive.infolist():
                budget.entry()
                name = checked_path(info.filename)
                unix = info.external_attr >> 16
                if stat.S_ISLNK(unix):
                    raise UploadRejected(f"archive entry {info.filename!r} is a link")
                if stat.S_IFMT(unix) and not (stat.S_ISREG(unix) or stat.S_ISDIR(unix)):
                    raise UploadRejected(
                        f"archive entry {info.filename!r} is a device or special file"
                    )
                if info.is_dir():
                    root.joinpath(*name.parts).mkdir(parents=True, exist_ok=True)
                    continue
                with archive.open(info) as source:
                    _write_entry(root, name, source, unix, budget)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError, ValueError) as exc:
        raise UploadRejected(f"not a readable archive: {exc}") from None
