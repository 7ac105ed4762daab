"""What each rule option means, as `--help` and `hgin rules` say it (by the option's name)."""

RULE_HELP: dict[str, str] = {
    "gin_bonus": "Points for gin, on top of the opponent's deadwood.",
    "undercut_bonus": "Bonus to the defender who undercuts a knock.",
    "big_gin_bonus": "Big gin (all 11 cards melded) scores this bonus plus the deadwood; "
    "0 = not played.",
    "target": "Points that close a game (bonuses never count toward it).",
    "games": "Games on the sheet: 1, 3 or 5; the match goes to who wins more than half.",
    "rolling": "Rolling Hollywood: three games always in progress; each game that closes opens "
    "the next, until notice is given ('hgin notice'). Not with --games.",
    "game_bonus": "At a game's close, to its winner.",
    "box_bonus": "At a game's close, to each player per hand they won in that game.",
    "shutout": "When the loser of a closing game has 0 in it: none; bonus (game bonus doubled); "
    "double (winner's whole game total doubled).",
    "tie": "Equal counts on a knock: undercut (the defender wins) or knocker (wins 0).",
    "entry": "Which games a win enters: count (win n enters games 1..n) or next-open "
    "(also the first open game not yet entered).",
    "decide": "Match winner: majority of games, or net (the larger sheet total).",
    "dealer_rule": "Who deals after a won hand: alternate, winner or loser.",
    "redeal": "Who deals after a dead hand: the same dealer, or the other player.",
    "oklahoma": "Oklahoma: the upcard's value is the knock limit; a spade upcard doubles the hand.",
    "oklahoma_ace": "An Oklahoma ace upcard: gin (no knocking) or one (knock with 1).",
    "straight": "Straight Gin: no knocking, only gin ends a hand.",
    "stake": "Money per point for 'hgin settle' and the summaries, e.g. 0.05 (none: points "
    "only); it never changes a score.",
}
