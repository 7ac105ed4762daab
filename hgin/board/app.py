"""The board's web application (Starlette): the page, its live stream and the scorer's entries.

Every address is `/b/<token>` or below it. A missing or wrong token, an unknown address and a
method not offered all get the same bare 404, which says nothing (not even that a match
exists). The read-only token shows the sheet; the scorer token also records hands, as POSTs of
JSON from the board's own origin only, each carrying a request id: a phone that sends the same
entry again (a retry on a flaky network) gets the first answer back and records nothing more.
Entries go through the same `ScoreKeeper` methods as the command line (same checks, same lock,
same one-line refusal).

The page is three files in `hgin/board/static/`, joined into one self-contained HTML page when
the board starts: layout and fixed labels only. Everything it says about a match comes worded
from `hgin.reports.board` as JSON, so the wording stays in `reports` with the rest of hgin's.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import ipaddress
import secrets
from collections import OrderedDict
from collections.abc import AsyncIterator
from importlib import resources
from typing import Any, NamedTuple

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route

from hgin.board.live import Live
from hgin.errors import HginError
from hgin.scorekeeper import Outcome, ScoreKeeper
from hgin.store.guard import Unusable, parse_json

MAX_ENTRY = 4096  # bytes: an entry is a few short fields
BODY_TIMEOUT = 5.0  # seconds for an entry to come whole
MAX_HANDS = 100_000  # a hand number beyond any match
# The summary page holds its style and its charts (SVG) inline, and nothing runs.
SUMMARY_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"
REMEMBERED = 500  # the latest request ids answered, with their answers
PRIVATE = {
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
}


class Tokens(NamedTuple):
    """The secrets in the board's addresses: read-only, and the scorer's (if any)."""

    viewer: str
    scorer: str | None

    @classmethod
    def new(cls, *, scorer: bool) -> Tokens:
        return cls(secrets.token_urlsafe(16), secrets.token_urlsafe(16) if scorer else None)

    def role(self, token: str) -> str | None:
        """'scorer', 'viewer', or None for a token that is neither."""
        typed = token.encode("utf-8", "replace")
        if self.scorer is not None and secrets.compare_digest(typed, self.scorer.encode()):
            return "scorer"
        return "viewer" if secrets.compare_digest(typed, self.viewer.encode()) else None


def page_html(role: str, join_qr: str) -> tuple[bytes, str]:
    """The page for a role, with its style and script inline, and the security policy that
    lets it load nothing else (the inline parts are allowed by their hashes)."""
    folder = resources.files("hgin.board") / "static"
    style = (folder / "board.css").read_text(encoding="utf-8")
    script = (folder / "board.js").read_text(encoding="utf-8")
    html = (folder / "board.html").read_text(encoding="utf-8")
    html = html.replace("{role}", role).replace("{join}", join_qr)
    html = html.replace("/*style*/", style).replace("/*script*/", script)
    policy = (
        f"default-src 'none'; style-src '{_hash(style)}'; script-src '{_hash(script)}'; "
        "connect-src 'self'; img-src data:; base-uri 'none'; form-action 'none'; "
        "frame-ancestors 'none'"
    )
    return html.encode("utf-8"), policy


def _hash(text: str) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode()


def board_app(keeper: ScoreKeeper, live: Live, tokens: Tokens, join_qr: str) -> Starlette:
    """The application serving `live` at the addresses `tokens` open."""
    pages = {role: page_html(role, join_qr) for role in ("viewer", "scorer")}
    answered: OrderedDict[str, tuple[int, dict[str, Any]]] = OrderedDict()
    one_at_a_time = asyncio.Lock()

    def role_of(request: Request) -> str:
        role = tokens.role(request.path_params["token"])
        if role is None or not _served_host(request):
            raise HTTPException(404)
        return role

    async def page(request: Request) -> Response:
        html, policy = pages[role_of(request)]
        headers = {**PRIVATE, "Content-Security-Policy": policy}
        return Response(html, media_type="text/html; charset=utf-8", headers=headers)

    async def sheet(request: Request) -> Response:
        role_of(request)
        return Response(live.view, media_type="application/json", headers=PRIVATE)

    async def summary(request: Request) -> Response:
        """The shown match's printable summary, as `hgin summary -f html` writes it."""
        role_of(request)
        shown = live.shown
        if shown is None:
            raise HTTPException(404)
        page = await asyncio.to_thread(keeper.summary_page, shown)
        headers = {**PRIVATE, "Content-Security-Policy": SUMMARY_POLICY}
        return Response(page, media_type="text/html; charset=utf-8", headers=headers)

    async def events(request: Request) -> Response:
        role_of(request)
        return StreamingResponse(live.updates(), media_type="text/event-stream", headers=PRIVATE)

    async def enter(request: Request) -> Response:
        if role_of(request) != "scorer":
            raise HTTPException(404)
        if request.headers.get("origin") != f"http://{request.headers.get('host')}":
            return _answer(403, "refused: an entry must come from the board's own page")
        try:
            entry = await _entry(request)
        except ClientDisconnect:  # the phone went away (or the server cut a stalled body)
            return Response(status_code=400)  # answered to nobody
        except ValueError as error:
            return _answer(400, f"refused: {error}")
        async with one_at_a_time:
            if entry.request not in answered:
                answered[entry.request] = await asyncio.to_thread(
                    _record, keeper, entry, live.shown
                )
                while len(answered) > REMEMBERED:
                    answered.popitem(last=False)
            status, body = answered[entry.request]
            if "started" in body and live.match is not None:
                live.match = body["started"]  # a board on one match follows the one it started
        await live.refresh()
        return JSONResponse(body, status_code=status, headers=PRIVATE)

    async def not_found(request: Request, error: Exception) -> Response:
        return PlainTextResponse("Not Found", status_code=404, headers=PRIVATE)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        watcher = asyncio.create_task(live.watch())
        try:
            yield
        finally:
            watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watcher

    routes = [
        Route("/b/{token}", page),
        Route("/b/{token}/sheet.json", sheet),
        Route("/b/{token}/events", events),
        Route("/b/{token}/summary", summary),
        Route("/b/{token}/enter", enter, methods=["POST"]),
    ]
    handlers = {404: not_found, 405: not_found}
    app = Starlette(routes=routes, exception_handlers=handlers, lifespan=lifespan)
    app.router.redirect_slashes = False  # '/b/x/' is no address: a bare 404, not a redirect
    return app


def _served_host(request: Request) -> bool:
    """Whether the request names this board as a browser on the network does: by the address
    it reached (or localhost, or a loopback address) and the board's port. A page of another
    name that resolves here (DNS rebinding) is not served."""
    server = request.scope.get("server") or (None, None)
    host, _, port = request.headers.get("host", "").rpartition(":")
    if not port.isdigit() or int(port) != server[1]:
        return False
    name = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    if name == "localhost" or name == server[0]:
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


class Entry(NamedTuple):
    """One entry from the scorer page: what to record, in which match, under which id."""

    request: str
    match: str
    action: str
    player: str
    counts: tuple[int, ...]
    version: tuple[int, str] | None  # the match's latest change (number, time) the page showed
    upcard: str | None = None  # an Oklahoma match's upcard ("7s")
    hand: int | None = None  # the hand a delete takes out, or an entry corrects
    new: tuple[str, str, str | None] | None = None  # a new match: its players and rules


# How many counts each action takes.
ACTIONS = {
    "gin": 1,
    "big_gin": 1,
    "knock": 2,
    "draw": 0,
    "undo": 0,
    "redo": 0,
    "notice": 0,
    "rematch": 0,
    "series_next": 0,
    "delete": 0,
    "new": 0,
}


async def _entry(request: Request) -> Entry:
    """The entry a request's body holds; ValueError saying what is wrong with it."""
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise ValueError("an entry is sent as JSON")
    body = b""
    try:
        async with asyncio.timeout(BODY_TIMEOUT):
            async for chunk in request.stream():
                body += chunk
                if len(body) > MAX_ENTRY:
                    raise ValueError("the entry is too long")
    except TimeoutError:
        raise ValueError("the entry came too slowly") from None
    try:
        data = parse_json(body, "the entry")  # as any file: nesting, keys given twice, texts
    except Unusable as error:
        raise ValueError(error.problem) from None
    if not isinstance(data, dict):
        raise ValueError("the entry is not a JSON object")
    names = ("request", "match", "action", "player", "upcard", "first", "second", "rules")
    texts = [data.get(name, "") for name in names]
    counts = data.get("counts", [])
    if not all(isinstance(text, str) and len(text) <= 200 for text in texts):
        raise ValueError("the entry's fields are texts")
    request_id, match, action, player, upcard, first, second, rules = texts
    version = data.get("version")
    if version is not None and not (
        isinstance(version, list)
        and len(version) == 2
        and type(version[0]) is int
        and isinstance(version[1], str)
    ):
        raise ValueError("the entry's version is the number and time of a change")
    if not request_id or action not in ACTIONS:
        raise ValueError("the entry has no request id or no known action")
    if not isinstance(counts, list) or len(counts) != ACTIONS[action]:
        raise ValueError(f"{action} takes {ACTIONS[action]} count(s)")
    if not all(type(count) is int and 0 <= count <= 999 for count in counts):
        raise ValueError("a count is a whole number from 0 to 999")
    shown = (version[0], version[1]) if version is not None else None
    hand = data.get("hand")
    if hand is not None and not (type(hand) is int and 1 <= hand <= MAX_HANDS):
        raise ValueError("the entry's hand is a hand number")
    if action == "delete" and hand is None:
        raise ValueError("delete names the hand it takes out")
    return Entry(
        request_id,
        match,
        action,
        player,
        tuple(counts),
        shown,
        upcard or None,
        hand,
        (first, second, rules or None) if action == "new" else None,
    )


def _record(keeper: ScoreKeeper, entry: Entry, shown: str | None) -> tuple[int, dict[str, Any]]:
    """Record an entry in the match the board shows, as the command line would; the HTTP
    status and what the phone shows: the sentence of what happened, or the refusal."""
    if shown is None or entry.match != shown:
        said = "the board shows no match" if shown is None else f"the board now shows {shown}"
        return 409, {"ok": False, "message": f"hgin: {said}: look at it again, then enter"}
    outcome: Outcome
    try:
        version = entry.version
        if entry.action == "delete" and entry.hand is not None:
            outcome = keeper.delete(entry.hand, match=shown, version=version)
        elif entry.hand is not None and entry.action in ("gin", "big_gin", "knock", "draw"):
            outcome = keeper.correct(
                entry.hand,
                entry.action,
                entry.player or None,
                entry.counts,
                upcard=entry.upcard,
                match=shown,
                version=version,
            )
        elif entry.action in ("gin", "big_gin"):
            big = entry.action == "big_gin"
            outcome = keeper.gin(
                entry.player,
                entry.counts[0],
                big=big,
                upcard=entry.upcard,
                match=shown,
                version=version,
            )
        elif entry.action == "knock":
            deadwood, opponent = entry.counts
            outcome = keeper.knock(
                entry.player, deadwood, opponent, upcard=entry.upcard, match=shown, version=version
            )
        elif entry.action == "draw":
            outcome = keeper.draw(match=shown, version=version)
        elif entry.action == "redo":
            outcome = keeper.redo(match=shown, version=version)
        elif entry.action == "notice":
            outcome = keeper.notice(match=shown, version=version)
        elif entry.action == "undo":
            outcome = keeper.undo(match=shown, version=version)
        elif entry.action == "new" and entry.new is not None:
            first, second, rules = entry.new
            outcome = keeper.new(first, second, rules=rules)
        else:  # rematch or series_next: ACTIONS holds no other
            outcome = keeper.rematch(shown, series_only=entry.action == "series_next")
    except HginError as refusal:
        return 422, {"ok": False, "message": f"hgin: {' '.join(str(refusal).split())}"}
    starts = entry.action in ("new", "rematch", "series_next")
    return 200, {
        "ok": True,
        "message": outcome.message,
        **({"started": outcome.match.id} if starts else {}),
    }


def _answer(status: int, message: str) -> Response:
    return JSONResponse({"ok": False, "message": message}, status_code=status, headers=PRIVATE)
