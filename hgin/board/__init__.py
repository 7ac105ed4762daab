"""The live board (`hgin board`): the sheet served to phones and TVs, and a scorer page.
May import: stdlib, board, scorekeeper, errors, reports, starlette, uvicorn, segno (the extra's)."""
