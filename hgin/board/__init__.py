"""The live board (`hgin board`): the sheet served to phones and TVs, and a scorer page.
May import: stdlib, board, scorekeeper, errors, reports, hgin.store.guard (the checks of JSON
that every file hgin reads passes, for the scorer's entries), starlette, uvicorn, h11, segno
(the extra's)."""
