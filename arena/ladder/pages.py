"""The ladder's pages: server-rendered HTML, every name, note and log line escaped, no
script (live updates by refreshing), one small stylesheet, readable on a phone."""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Sequence
from html import escape
from urllib.parse import quote

from arena.ladder.board import Board, Row
from arena.ladder.db import Bot, Participant, Submission

STYLE = """
body{font-family:system-ui,sans-serif;margin:0;color:#1d2330;background:#f6f7f9}
header{background:#1d2330;color:#fff;padding:.6rem 1rem;display:flex;flex-wrap:wrap;gap:1rem;
align-items:center}
header a{color:#fff;text-decoration:none}header .brand{font-weight:700;margin-right:auto}
main{max-width:60rem;margin:0 auto;padding:1rem}
.scroll{overflow-x:auto}table{border-collapse:collapse;width:100%;background:#fff}
th,td{padding:.35rem .5rem;border-bottom:1px solid #e1e4ea;text-align:left;white-space:nowrap}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
.up{color:#1a7f37}.down{color:#c0362c}.muted{color:#6b7280}
.state-accepted,.state-active{color:#1a7f37;font-weight:600}
.state-rejected,.state-banned{color:#c0362c;font-weight:600}
.state-checking,.state-received{color:#9a6700;font-weight:600}
pre{background:#fff;border:1px solid #e1e4ea;padding:.6rem;overflow-x:auto;white-space:pre-wrap;
word-break:break-word}
form.card,.card{background:#fff;border:1px solid #e1e4ea;padding:1rem;margin:1rem 0}
label{display:block;margin:.5rem 0 .2rem}input[type=text],input[type=password]{width:100%;
max-width:30rem;padding:.4rem;box-sizing:border-box}
button{padding:.45rem 1rem;margin-top:.6rem}
.inline{display:inline;margin:0}.inline button{margin:0 .2rem}
.notice{background:#fff8c5;border:1px solid #d4a72c;padding:.6rem}
.error{background:#ffebe9;border:1px solid #c0362c;padding:.6rem}
svg.history{background:#fff;border:1px solid #e1e4ea;width:100%;max-width:40rem;height:auto}
"""

REFRESH_S = 10


def layout(title: str, body: str, who: Participant | None, *, refresh: bool = False) -> str:
    signed = (
        f'<span>{escape(who.name)}</span> <a href="/logout">sign out</a>'
        if who is not None
        else '<a href="/login">sign in</a>'
    )
    organiser = ' <a href="/organiser">organiser</a>' if who is not None and who.organiser else ""
    meta = f'<meta http-equiv="refresh" content="{REFRESH_S}">' if refresh else ""
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">{meta}
<title>{escape(title)}</title><link rel="stylesheet" href="/static/ladder.css"></head>
<body><header><a class="brand" href="/">Arena ladder</a><a href="/submit">submit</a>
{organiser} {signed}</header><main>{body}</main></body></html>"""


def when(stamp: float) -> str:
    if not stamp:
        return ""
    return datetime.datetime.fromtimestamp(stamp, datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")


def bot_link(name: str) -> str:
    return f'<a href="/bot/{quote(name, safe="")}">{escape(name)}</a>'


def _num(value: float | None, digits: int = 0) -> str:
    return "" if value is None else f"{value:.{digits}f}"


def _trend(value: float | None) -> str:
    if value is None or abs(value) < 0.5:
        return '<span class="muted">·</span>'
    css, mark = ("up", "▲") if value > 0 else ("down", "▼")
    return f'<span class="{css}">{mark} {abs(value):.0f}</span>'


def leaderboard(board: Board, *, ladder: str, paused: bool, running: int, stored: int) -> str:
    rows = "".join(_board_row(row) for row in board.rows)
    state = "paused by the organiser" if paused else f"{running} game(s) in play"
    notes = "".join(f"<p class=muted>{escape(note)}</p>" for note in board.notes)
    empty = "" if board.rows else "<p>No rated games yet.</p>"
    return f"""<h1>{escape(ladder)}</h1>
<p class="muted">{stored:,} games stored · {escape(state)} · ratings of {escape(when(board.at))}
(refreshes every {REFRESH_S} s) · <a href="/api/leaderboard">JSON</a></p>
<div class="scroll"><table><thead><tr><th class=num>#</th><th>bot</th><th class=num>Elo</th>
<th class=num>interval</th><th class=num>games</th><th>trend</th><th>owner</th>
<th class=num>v</th><th class=num>score</th><th>status</th><th>last change</th></tr></thead>
<tbody>{rows}</tbody></table></div>{empty}{notes}"""


def _board_row(row: Row) -> str:
    interval = "" if row.low is None else f"{_num(row.low)} – {_num(row.high)}"
    return (
        f"<tr><td class=num>{row.rank}</td><td>{bot_link(row.bot)}</td>"
        f"<td class=num>{_num(row.elo)}</td><td class=num>{interval}</td>"
        f"<td class=num>{row.games:,}</td><td>{_trend(row.trend)}</td>"
        f"<td>{escape(row.owner)}</td><td class=num>{row.version or ''}</td>"
        f"<td class=num>{row.score_pct:.1f}%</td><td class='state-{escape(row.status)}'>"
        f"{escape(row.status)}</td><td>{escape(when(row.changed))}</td></tr>"
    )


def history_svg(points: Sequence[tuple[float, float, int]]) -> str:
    if len(points) < 2:
        return "<p class=muted>Not enough ratings yet for a chart.</p>"
    elos = [elo for _, elo, _ in points]
    low, high = min(elos) - 10, max(elos) + 10
    width, height = 600, 160
    step = width / (len(points) - 1)
    xy = " ".join(
        f"{i * step:.1f},{height - (elo - low) / (high - low) * height:.1f}"
        for i, elo in enumerate(elos)
    )
    return (
        f'<svg class="history" viewBox="-40 -10 {width + 50} {height + 20}" role="img" '
        f'aria-label="rating history"><polyline fill="none" stroke="#2f6fdb" stroke-width="2" '
        f'points="{xy}"/><text x="-38" y="4" font-size="11">{high:.0f}</text>'
        f'<text x="-38" y="{height}" font-size="11">{low:.0f}</text></svg>'
    )


def bot_page(
    bot: Bot,
    versions: Sequence[Submission],
    row: Row | None,
    history: Sequence[tuple[float, float, int]],
    games: Iterable[tuple[str, tuple[str, ...], tuple[int, ...]]],
    *,
    private: str,
    csrf: str,
    may_act: bool,
) -> str:
    rating = (
        f"<p>Elo <b>{_num(row.elo)}</b> ({_num(row.low)} – {_num(row.high)}), "
        f"{row.games:,} games, score {row.score_pct:.1f}%, rank {row.rank}</p>"
        if row is not None
        else "<p class=muted>Not rated yet.</p>"
    )
    version_rows = "".join(
        f"<tr><td class=num>{s.version}</td><td><a href='/submission/{s.id}'>#{s.id}</a></td>"
        f"<td class='state-{escape(s.state)}'>{escape(s.state)}</td>"
        f"<td>{escape(s.reason)}</td><td>{escape(when(s.created))}</td></tr>"
        for s in versions
    )
    game_rows = "".join(
        f"<tr><td><a href='/game/{quote(game_id)}'>{escape(game_id)}</a></td>"
        f"<td>{_seats(seating, ranks)}</td></tr>"
        for game_id, seating, ranks in games
    )
    actions = ""
    if may_act and bot.status == "active":
        actions = (
            f"<form class=inline method=post action='/bot/{quote(bot.name, safe='')}/retire'>"
            f"<input type=hidden name=csrf value='{csrf}'><button>retire this bot</button></form>"
        )
    return f"""<h1>{escape(bot.name)}</h1>
<p>owner {escape(bot.owner_name)} · status <span class='state-{escape(bot.status)}'>
{escape(bot.status)}</span> {actions}</p>{rating}
<h2>Rating history</h2>{history_svg(history)}
<h2>Versions</h2><div class=scroll><table><thead><tr><th class=num>v</th><th>submission</th>
<th>state</th><th>reason</th><th>submitted</th></tr></thead><tbody>{version_rows}</tbody></table>
</div><h2>Recent games</h2><div class=scroll><table><thead><tr><th>game</th>
<th>seats (place)</th></tr></thead><tbody>{game_rows}</tbody></table></div>{private}"""


def _seats(seating: Sequence[str], ranks: Sequence[int]) -> str:
    return ", ".join(f"{escape(name)} ({rank})" for name, rank in zip(seating, ranks, strict=True))


def private_part(log: str, files: Sequence[tuple[str, str]]) -> str:
    """What only the owner and the organiser see: the live version's stderr and source."""
    sources = "".join(f"<h3>{escape(name)}</h3><pre>{escape(text)}</pre>" for name, text in files)
    return (
        "<h2>Its stderr log (you see it as its owner or the organiser)</h2>"
        f"<pre>{escape(log) or '(empty)'}</pre><h2>Its source</h2>{sources}"
    )


def submission_page(sub: Submission, *, show_log: bool) -> str:
    refresh_note = (
        "<p class=notice>Being checked: this page refreshes itself.</p>"
        if sub.state in ("received", "checking")
        else ""
    )
    reason = f"<p class=error>Rejected: {escape(sub.reason)}</p>" if sub.state == "rejected" else ""
    log = (
        f"<h2>Check log</h2><pre>{escape(sub.log) or '(not checked yet)'}</pre>"
        if show_log
        else "<p class=muted>The check log is shown to the bot's owner (sign in).</p>"
    )
    return f"""<h1>Submission #{sub.id}</h1>
<p>{bot_link(sub.bot_name)} version {sub.version} · state
<span class='state-{escape(sub.state)}'>{escape(sub.state)}</span> · {sub.bytes:,} bytes
· sha256 <code>{escape(sub.sha256[:16])}…</code> · {escape(when(sub.created))}</p>
{refresh_note}{reason}{log}"""


def submit_form(csrf: str, *, signed_in: bool, message: str = "") -> str:
    token = (
        ""
        if signed_in
        else "<label for=token>your token</label><input type=password id=token name=token "
        "autocomplete=off required>"
    )
    note = f"<p class=error>{escape(message)}</p>" if message else ""
    return f"""<h1>Submit a bot</h1>{note}
<form class=card method=post action="/submit" enctype="multipart/form-data">
<input type=hidden name=csrf value="{csrf}">{token}
<label for=name>bot name</label><input type=text id=name name=name required maxlength=48>
<label for=cmd>command (optional; else bot.toml's cmd, or bot.py)</label>
<input type=text id=cmd name=cmd placeholder="python bot.py">
<label for=file>a single file, or an archive of the folder (.tar.gz, .zip)</label>
<input type=file id=file name=file required>
<button>submit</button></form>"""


def login_form(csrf: str, message: str = "", *, register: bool = False) -> str:
    note = f"<p class=error>{escape(message)}</p>" if message else ""
    joining = (
        f"""<h2>New here?</h2><form class=card method=post action="/register">
<input type=hidden name=csrf value="{csrf}"><label for=who>your name</label>
<input type=text id=who name=name required maxlength=48><button>get a token</button></form>"""
        if register
        else "<p class=muted>Tokens are handed out by the organiser.</p>"
    )
    return f"""<h1>Sign in</h1>{note}<form class=card method=post action="/login">
<input type=hidden name=csrf value="{csrf}"><label for=token>your token</label>
<input type=password id=token name=token autocomplete=off required>
<button>sign in</button></form>{joining}"""


def token_shown(name: str, token: str) -> str:
    return f"""<h1>Welcome, {escape(name)}</h1><p class=notice>Your token, shown once (only its
hash is kept): <code>{escape(token)}</code></p><p><a href="/login">Sign in with it</a>.</p>"""


def organiser_page(
    bots: Sequence[Bot],
    running: Sequence[tuple[str, tuple[str, ...]]],
    *,
    paused: bool,
    queue: int,
    csrf: str,
) -> str:
    hidden = f"<input type=hidden name=csrf value='{csrf}'>"
    toggle = "resume" if paused else "pause"
    games = (
        "".join(
            f"<li>{escape(game_id)}: {escape(' vs '.join(seating))}</li>"
            for game_id, seating in running
        )
        or "<li class=muted>none</li>"
    )
    rows = "".join(
        f"<tr><td>{bot_link(b.name)}</td><td>{escape(b.owner_name)}</td>"
        f"<td class='state-{escape(b.status)}'>{escape(b.status)}</td><td>"
        + "".join(
            f"<form class=inline method=post action='/organiser/{verb}'>{hidden}"
            f"<input type=hidden name=bot value='{escape(b.name, quote=True)}'>"
            f"<button>{verb}</button></form>"
            for verb in ("retire", "ban")
            if b.status not in ("banned",) and not (verb == "retire" and b.status == "retired")
        )
        + "</td></tr>"
        for b in bots
    )
    return f"""<h1>Organiser</h1>
<form class=card method=post action="/organiser/{toggle}">{hidden}
<p>Play is <b>{"paused" if paused else "running"}</b>; {queue} submission(s) waiting for a
check.</p><button>{toggle} play</button></form>
<h2>Running now</h2><ul>{games}</ul>
<h2>Bots</h2><div class=scroll><table><thead><tr><th>bot</th><th>owner</th><th>status</th>
<th>act</th></tr></thead><tbody>{rows}</tbody></table></div>"""


def error_page(status: int, message: str) -> str:
    return (
        f"<h1>{status}</h1><p class=error>{escape(message)}</p><p><a href='/'>leaderboard</a></p>"
    )
