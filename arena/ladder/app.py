"""The ladder's web application (plain ASGI): pages, the JSON API and the submissions.

Authentication: a participant's token (``<id>.<secret>``; only its hash is stored, compared
in constant time) as ``Authorization: Bearer`` on the API, or kept in an HttpOnly,
SameSite=Strict cookie once signed in on the pages. Every form carries a CSRF token (a keyed
hash of a per-browser cookie) and is refused without it.
"""

from __future__ import annotations

import re
import secrets
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

import trio

from arena.errors import ArenaError
from arena.ladder import pages
from arena.ladder.board import Board
from arena.ladder.db import LadderDB, Participant, Submission
from arena.ladder.player import LadderPlayer
from arena.ladder.settings import Ladder, check_bot_name
from arena.ladder.tokens import form_token, new_token, same_hash, same_text, token_hash
from arena.ladder.uploads import safe_filename, store_upload
from arena.ladder.web import HttpError, Receive, Request, Response, Scope, Send, read_body
from arena.league.layout import bot_log
from arena.league.reading import iter_games
from arena.show.html.viewer import viewer_page

SESSION = "arena_token"
CSRF = "arena_csrf"
FORM_OVERHEAD = 64 << 10  # bytes of a form beyond its file
SOURCE_FILES = 20  # files of a bot's source shown on its page
SOURCE_BYTES = 64 << 10  # bytes of each


@dataclass
class LadderState:
    """What the pages read and act on; one per server process."""

    ladder: Ladder
    folder: Path
    db: LadderDB
    player: LadderPlayer
    secret: bytes
    wake_checks: Callable[[], None]
    board: Board = field(default_factory=Board)


def participant_for(db: LadderDB, token: str) -> Participant | None:
    """The participant whose token this is (constant-time comparison of hashes)."""
    head, dot, _ = token.partition(".")
    if not dot or not head.isdigit() or len(token) > 200:
        return None
    found = db.participant(int(head))
    if found is None or not same_hash(found.token_hash, token):
        return None
    return found


def issue_token(db: LadderDB, name: str, *, organiser: bool = False) -> str:
    """Create a participant; return their token (``<id>.<secret>``), which is not stored."""
    secret = new_token()
    pending = db.add_participant(name, token_hash("pending:" + secret), organiser=organiser)
    token = f"{pending}.{secret}"
    with db.transaction() as raw:
        raw.execute(
            "UPDATE participants SET token_hash = ? WHERE id = ?", (token_hash(token), pending)
        )
    return token


class LadderApp:
    """The ASGI application."""

    def __init__(self, state: LadderState) -> None:
        self.state = state
        s = state.ladder.settings
        self.max_upload = s.max_upload_kb << 10

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})
            return
        if scope["type"] != "http":
            return
        request = Request.of(scope)
        try:
            response = await self.route(request, receive)
        except HttpError as exc:
            response = self.error(request, exc.status, exc.message)
        except ArenaError as exc:
            response = self.error(request, 400, str(exc))
        except Exception:  # the server's own fault: logged, and a plain answer to the client
            traceback.print_exc()
            response = self.error(request, 500, "internal error (the organiser's log has it)")
        await response.send(send)

    def error(self, request: Request, status: int, message: str) -> Response:
        if request.path.startswith("/api/"):
            return Response.json({"error": message, "status": status}, status)
        who = self.who(request)
        return Response(
            status, pages.layout(str(status), pages.error_page(status, message), who).encode()
        )

    # --- helpers
    def who(self, request: Request) -> Participant | None:
        token = request.cookies.get(SESSION, "")
        return participant_for(self.state.db, token) if token else None

    def page(self, request: Request, title: str, body: str, *, refresh: bool = False) -> Response:
        page = pages.layout(title, body, self.who(request), refresh=refresh)
        response = Response(200, page.encode())
        if request.new_csrf:
            response.cookie(CSRF, request.new_csrf, max_age=30 * 86400)
        return response

    def _new_csrf(self, request: Request) -> str:
        value = secrets.token_urlsafe(16)
        request.cookies[CSRF] = request.new_csrf = value  # this page's forms are made for it
        return value

    def csrf_of(self, request: Request) -> str:
        cookie = request.cookies.get(CSRF) or self._new_csrf(request)
        return form_token(self.state.secret, cookie)

    async def posted(
        self, request: Request, receive: Receive, limit: int
    ) -> tuple[dict[str, str], dict[str, tuple[str, bytes]]]:
        request.body = await read_body(receive, limit)
        fields, files = request.form()
        cookie = request.cookies.get(CSRF, "")
        if not cookie or not same_text(
            fields.get("csrf", ""), form_token(self.state.secret, cookie)
        ):
            raise HttpError(
                403, "the form's security token is missing or stale: reload the page and try again"
            )
        return fields, files

    # --- routing
    async def route(self, request: Request, receive: Receive) -> Response:
        method, path = request.method, request.path
        get = method in ("GET", "HEAD")
        if get and path == "/":
            return self.leaderboard(request)
        if get and path == "/favicon.ico":  # none: an empty answer, not a 404 in every log
            return Response(204, b"", "image/x-icon")
        if get and path == "/static/ladder.css":
            return Response(200, pages.STYLE.encode(), "text/css; charset=utf-8")
        if get and path == "/api/leaderboard":
            return self.api_leaderboard()
        if get and path == "/api/status":
            return Response.json(self.status())
        if method == "POST" and path == "/api/submit":
            return await self.api_submit(request, receive)
        if get and (m := re.fullmatch(r"/api/submission/(\d+)", path)):
            return self.api_submission(request, int(m.group(1)))
        if path == "/submit":
            if method == "POST":
                return await self.submit_post(request, receive)
            return self.submit_get(request)
        if path == "/login":
            if method == "POST":
                return await self.login_post(request, receive)
            return self.login_get(request)
        if method == "POST" and path == "/register":
            return await self.register(request, receive)
        if get and path == "/logout":
            response = Response.redirect("/")
            response.cookie(SESSION, "", max_age=0)
            return response
        if get and (m := re.fullmatch(r"/bot/([^/]+)", path)):
            return self.bot(request, m.group(1))
        if method == "POST" and (m := re.fullmatch(r"/bot/([^/]+)/retire", path)):
            return await self.retire_own(request, receive, m.group(1))
        if get and (m := re.fullmatch(r"/submission/(\d+)", path)):
            return self.submission(request, int(m.group(1)))
        if get and path == "/organiser":
            return self.organiser(request)
        if method == "POST" and (m := re.fullmatch(r"/organiser/(pause|resume|retire|ban)", path)):
            return await self.organise(request, receive, m.group(1))
        if get and (m := re.fullmatch(r"/game/(t\d+-b\d+-r\d+)", path)):
            return await self.game(m.group(1))
        if get or method == "POST":
            raise HttpError(404, f"no page {path}")
        raise HttpError(405, f"method {method} is not allowed here")

    # --- the leaderboard
    def status(self) -> dict[str, object]:
        player = self.state.player
        return {
            "paused": player.paused,
            "running": len(player.running),
            "stored": player.stored_games,
            "waiting_checks": len(self.state.db.unfinished()),
        }

    def leaderboard(self, request: Request) -> Response:
        state = self.state
        body = pages.leaderboard(
            state.board,
            ladder=state.ladder.league.name,
            paused=state.player.paused,
            running=len(state.player.running),
            stored=state.player.stored_games,
        )
        return self.page(request, state.ladder.league.name, body, refresh=True)

    def api_leaderboard(self) -> Response:
        board = self.state.board
        return Response.json(
            {"at": board.at, "rows": [row.to_json() for row in board.rows], **self.status()}
        )

    # --- submissions
    def intake(
        self, who: Participant, name: str, cmd: str, filename: str, data: bytes
    ) -> Submission:
        """Store an upload and record it: on disk (synced) and in the database before the
        caller answers."""
        settings = self.state.ladder.settings
        db = self.state.db
        if who.banned:
            raise HttpError(403, "you are banned from this ladder")
        name = name.strip()
        wrong = check_bot_name(name, self.state.player.houses)
        if wrong:
            raise HttpError(400, wrong)
        if len(cmd) > 1000 or not cmd.isprintable():
            raise HttpError(400, "the command is too long or not printable")
        if not data:
            raise HttpError(400, "the upload is empty")
        if len(data) > self.max_upload:
            raise HttpError(413, f"the upload is too large: at most {settings.max_upload_kb} KiB")
        recent = db.recent_submissions(who.id, time.time() - 3600)
        if len(recent) >= settings.submissions_per_hour:
            raise HttpError(
                429, f"at most {settings.submissions_per_hour} submissions an hour: try again later"
            )
        if db.stored_bytes(who.id) + len(data) > settings.quota_mb << 20:
            raise HttpError(413, f"your storage quota ({settings.quota_mb} MiB) is used up")
        bot = db.bot_named(name)
        if bot is not None and bot.owner != who.id:
            raise HttpError(403, f"the bot {name!r} belongs to another participant")
        digest = store_upload(self.state.folder, data)
        try:
            submission = db.add_submission(
                who.id,
                name,
                sha256=digest,
                size=len(data),
                filename=safe_filename(filename),
                cmd=cmd,
            )
        except PermissionError as exc:
            raise HttpError(403, str(exc)) from None
        return submission

    async def api_submit(self, request: Request, receive: Receive) -> Response:
        who = participant_for(self.state.db, request.bearer())
        if who is None:
            raise HttpError(401, "a valid token is needed (Authorization: Bearer TOKEN)")
        declared = request.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > self.max_upload:
            raise HttpError(413, f"the upload is too large: at most {self.max_upload // 1024} KiB")
        data = await read_body(receive, self.max_upload)
        name = request.query.get("name", [""])[0]
        cmd = request.query.get("cmd", [""])[0]
        filename = request.query.get("filename", ["bot"])[0]
        submission = await trio.to_thread.run_sync(self.intake, who, name, cmd, filename, data)
        self.state.wake_checks()
        return Response.json(self.submission_json(submission, log=False), 201)

    def submission_json(self, sub: Submission, *, log: bool) -> dict[str, object]:
        data: dict[str, object] = {
            "id": sub.id,
            "bot": sub.bot_name,
            "version": sub.version,
            "state": sub.state,
            "reason": sub.reason,
            "sha256": sub.sha256,
            "page": f"/submission/{sub.id}",
        }
        if log:
            data["log"] = sub.log
        return data

    def api_submission(self, request: Request, id_: int) -> Response:
        sub = self.state.db.submission(id_)
        if sub is None:
            raise HttpError(404, f"no submission {id_}")
        who = participant_for(self.state.db, request.bearer())
        mine = who is not None and (who.id == sub.owner or who.organiser)
        return Response.json(self.submission_json(sub, log=mine))

    def submit_get(self, request: Request) -> Response:
        body = pages.submit_form(self.csrf_of(request), signed_in=self.who(request) is not None)
        return self.page(request, "submit", body)

    async def submit_post(self, request: Request, receive: Receive) -> Response:
        fields, files = await self.posted(request, receive, self.max_upload + FORM_OVERHEAD)
        who = self.who(request) or participant_for(self.state.db, fields.get("token", ""))
        if who is None:
            raise HttpError(401, "a valid token is needed: sign in, or give your token")
        if "file" not in files:
            raise HttpError(400, "choose a file to upload")
        filename, data = files["file"]
        submission = await trio.to_thread.run_sync(
            self.intake, who, fields.get("name", ""), fields.get("cmd", "").strip(), filename, data
        )
        self.state.wake_checks()
        return Response.redirect(f"/submission/{submission.id}")

    def submission(self, request: Request, id_: int) -> Response:
        sub = self.state.db.submission(id_)
        if sub is None:
            raise HttpError(404, f"no submission {id_}")
        who = self.who(request)
        mine = who is not None and (who.id == sub.owner or who.organiser)
        waiting = sub.state in ("received", "checking")
        return self.page(
            request, f"submission {id_}", pages.submission_page(sub, show_log=mine), refresh=waiting
        )

    # --- signing in
    def login_get(self, request: Request) -> Response:
        open_ = self.state.ladder.settings.registration == "open"
        return self.page(
            request, "sign in", pages.login_form(self.csrf_of(request), register=open_)
        )

    async def login_post(self, request: Request, receive: Receive) -> Response:
        fields, _ = await self.posted(request, receive, FORM_OVERHEAD)
        token = fields.get("token", "").strip()
        if participant_for(self.state.db, token) is None:
            raise HttpError(401, "that token is not valid here")
        response = Response.redirect("/")
        response.cookie(SESSION, token, max_age=30 * 86400)
        return response

    async def register(self, request: Request, receive: Receive) -> Response:
        if self.state.ladder.settings.registration != "open":
            raise HttpError(403, "registration is closed: ask the organiser for a token")
        fields, _ = await self.posted(request, receive, FORM_OVERHEAD)
        name = fields.get("name", "").strip()
        wrong = check_bot_name(name, ())
        if wrong:
            raise HttpError(
                400, wrong.replace("bot name", "name").replace("a bot needs", "you need")
            )
        try:
            token = issue_token(self.state.db, name)
        except ArenaError as exc:
            raise HttpError(409, str(exc)) from None
        return self.page(request, "welcome", pages.token_shown(name, token))

    # --- bots
    def bot(self, request: Request, quoted: str) -> Response:
        from urllib.parse import unquote

        name = unquote(quoted)
        db = self.state.db
        bot = db.bot_named(name)
        if bot is None:
            raise HttpError(404, f"no bot named {name!r}")
        versions = db.submissions_of(bot.id)
        live = next((s for s in versions if s.state == "accepted"), None)
        row = next(
            (r for r in self.state.board.rows if live is not None and r.player == live.player), None
        )
        history = db.rating_history(live.player) if live is not None else []
        players = {s.player for s in versions}
        games = [g for g in reversed(self.state.player.recent) if players & set(g[1])][:20]
        who = self.who(request)
        mine = who is not None and (who.id == bot.owner or who.organiser)
        private = ""
        if mine and live is not None:
            private = pages.private_part(
                _tail(bot_log(self.state.folder, live.player)), _source(Path(live.folder))
            )
        body = pages.bot_page(
            bot,
            versions,
            row,
            history,
            games,
            private=private,
            csrf=self.csrf_of(request),
            may_act=mine,
        )
        return self.page(request, bot.name, body, refresh=True)

    async def retire_own(self, request: Request, receive: Receive, quoted: str) -> Response:
        from urllib.parse import unquote

        await self.posted(request, receive, FORM_OVERHEAD)
        bot = self.state.db.bot_named(unquote(quoted))
        who = self.who(request)
        if bot is None:
            raise HttpError(404, "no such bot")
        if who is None or (who.id != bot.owner and not who.organiser):
            raise HttpError(403, "only its owner or the organiser may retire a bot")
        if bot.status == "active":
            self.state.db.set_bot_status(bot.id, "retired")
            self.state.player.notify()
        return Response.redirect(f"/bot/{quote(bot.name, safe='')}")

    # --- the organiser
    def organiser_only(self, request: Request) -> Participant:
        who = self.who(request)
        if who is None or not who.organiser:
            raise HttpError(403, "the organiser's page: sign in with an organiser's token")
        return who

    def organiser(self, request: Request) -> Response:
        self.organiser_only(request)
        player = self.state.player
        running = [(spec.id, spec.seating) for spec in player.running]
        body = pages.organiser_page(
            self.state.db.bots(),
            running,
            paused=player.paused,
            queue=len(self.state.db.unfinished()),
            csrf=self.csrf_of(request),
        )
        return self.page(request, "organiser", body, refresh=True)

    async def organise(self, request: Request, receive: Receive, verb: str) -> Response:
        fields, _ = await self.posted(request, receive, FORM_OVERHEAD)
        self.organiser_only(request)
        db = self.state.db
        if verb in ("pause", "resume"):
            db.set_meta("paused", "1" if verb == "pause" else "0")
        else:
            bot = db.bot_named(fields.get("bot", ""))
            if bot is None:
                raise HttpError(404, "no such bot")
            db.set_bot_status(bot.id, "retired" if verb == "retire" else "banned")
        self.state.player.notify()
        return Response.redirect("/organiser")

    # --- games
    async def game(self, game_id: str) -> Response:
        folder = self.state.folder

        def find() -> str | None:
            for record in iter_games(folder):
                if record.id == game_id:
                    return viewer_page(record, self.state.ladder.league.name)
            return None

        page = await trio.to_thread.run_sync(find)
        if page is None:
            raise HttpError(404, f"no stored game {game_id}")
        nonce = secrets.token_urlsafe(16)
        page = re.sub(r"<(script|style)(?=[\s>])", rf'<\1 nonce="{nonce}"', page)
        csp = (
            f"default-src 'none'; script-src 'nonce-{nonce}'; style-src 'nonce-{nonce}'; "
            "img-src data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
        )
        return Response(200, page.encode(), csp=csp)


def _tail(path: Path, most: int = 32 << 10) -> str:
    try:
        with path.open("rb") as handle:
            handle.seek(max(0, path.stat().st_size - most))
            return handle.read().decode("utf-8", "replace")
    except OSError:
        return ""


def _source(root: Path) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    for path in sorted(root.rglob("*")):
        if len(found) >= SOURCE_FILES:
            break
        if path.is_file() and not path.is_symlink():
            data = path.read_bytes()[:SOURCE_BYTES]
            if b"\0" not in data:
                found.append((str(path.relative_to(root)), data.decode("utf-8", "replace")))
    return found
