// The board's drawing rules as data: colours, the piece set's drawings
// (each a list of parts in a 100x100 box, see pieces.js) and each game's
// shades. The page draws with them (board.js, pieces.js, games/*.js) and
// the server's diagrams of the rules pages read this same file
// (crates/learn/src/diagram/art.rs): what follows `export default` is
// plain JSON, kept so (double quotes, no comments, no trailing commas).
export default {
 "board": {
  "light": "#f0d9b5",
  "dark": "#b58863",
  "last": "rgba(155, 199, 0, 0.41)",
  "selected": "rgba(20, 85, 30, 0.5)",
  "hint": "rgba(20, 85, 30, 0.5)",
  "hintHover": "rgba(20, 85, 30, 0.3)",
  "arrow": "rgba(200, 30, 30, 0.8)",
  "hold": "rgba(120, 60, 170, 0.85)",
  "mark": "rgba(21, 120, 27, 0.85)",
  "coordFont": "system-ui, sans-serif"
 },
 "sides": {
  "white": {
   "fill": "#fbfbf8",
   "stroke": "#1c1c1c",
   "detail": "#1c1c1c"
  },
  "black": {
   "fill": "#2b2b2b",
   "stroke": "#0b0b0b",
   "detail": "#ededed"
  },
  "blue": {
   "fill": "#2f6ed1",
   "stroke": "#123a7a",
   "detail": "#ffffff"
  },
  "red": {
   "fill": "#cf3b30",
   "stroke": "#6e1712",
   "detail": "#ffffff"
  }
 },
 "chess": {
  "parts": {
   "p": [
    {
     "body": "M44 48C44 60 34 68 31 79H69C66 68 56 60 56 48Z"
    },
    {
     "body": "M42 41H58Q62 41 62 45V46Q62 50 58 50H42Q38 50 38 46V45Q38 41 42 41Z"
    },
    {
     "circle": [
      50,
      28,
      12.5
     ]
    },
    {
     "body": "M24 90H76Q81 90 81 85V84Q81 79 76 79H24Q19 79 19 84V85Q19 90 24 90Z"
    }
   ],
   "r": [
    {
     "body": "M31 72L34 40H66L69 72Z"
    },
    {
     "body": "M26 79V73Q26 71 28 71H72Q74 71 74 73V79Z"
    },
    {
     "body": "M27 41V15H37V22H45V15H55V22H63V15H73V41Z"
    },
    {
     "line": "M33 41H67"
    },
    {
     "line": "M32 64H68"
    },
    {
     "body": "M24 90H76Q81 90 81 85V84Q81 79 76 79H24Q19 79 19 84V85Q19 90 24 90Z"
    }
   ],
   "b": [
    {
     "body": "M29 79C34 72 40 70 42 63H58C60 70 66 72 71 79Z"
    },
    {
     "body": "M40 56H60Q64 56 64 60V60Q64 64 60 64H40Q36 64 36 60V60Q36 56 40 56Z"
    },
    {
     "body": "M50 18C63 28 69 39 65 49C63 55 37 55 35 49C31 39 37 28 50 18Z"
    },
    {
     "circle": [
      50,
      13,
      5
     ]
    },
    {
     "line": "M57 29L46 41"
    },
    {
     "body": "M24 90H76Q81 90 81 85V84Q81 79 76 79H24Q19 79 19 84V85Q19 90 24 90Z"
    }
   ],
   "n": [
    {
     "body": "M70 79C74 61 73 40 61 27L58 13L51 22C40 23 31 31 26 42L18 55C16 60 20 65 25 64L31 61C35 57 40 56 46 55C45 63 38 69 33 79Z"
    },
    {
     "dot": [
      40,
      35,
      3.4
     ]
    },
    {
     "dot": [
      24,
      56,
      2
     ]
    },
    {
     "line": "M62 31C69 43 69 59 66 73"
    },
    {
     "body": "M24 90H76Q81 90 81 85V84Q81 79 76 79H24Q19 79 19 84V85Q19 90 24 90Z"
    }
   ],
   "q": [
    {
     "body": "M27 72L18 33L35 55L34 24L44 53L50 20L56 53L66 24L65 55L82 33L73 72Z"
    },
    {
     "circle": [
      18,
      30,
      5
     ]
    },
    {
     "circle": [
      34,
      21,
      5
     ]
    },
    {
     "circle": [
      50,
      16,
      5.5
     ]
    },
    {
     "circle": [
      66,
      21,
      5
     ]
    },
    {
     "circle": [
      82,
      30,
      5
     ]
    },
    {
     "body": "M27 72H73L70 79H30Z"
    },
    {
     "line": "M30 64Q50 59 70 64"
    },
    {
     "body": "M24 90H76Q81 90 81 85V84Q81 79 76 79H24Q19 79 19 84V85Q19 90 24 90Z"
    }
   ],
   "k": [
    {
     "body": "M47 6H53V13H60V19H53V30H47V19H40V13H47Z"
    },
    {
     "body": "M50 55C43 45 43 37 50 29C57 37 57 45 50 55Z"
    },
    {
     "body": "M27 72C17 62 15 46 29 42C39 39 46 46 50 55C54 46 61 39 71 42C85 46 83 62 73 72Z"
    },
    {
     "body": "M27 72H73L70 79H30Z"
    },
    {
     "line": "M30 64Q50 59 70 64"
    },
    {
     "body": "M24 90H76Q81 90 81 85V84Q81 79 76 79H24Q19 79 19 84V85Q19 90 24 90Z"
    }
   ],
   "c": [
    {
     "body": "M70 79C74 61 73 42 62 30L56 26C45 26 33 33 27 44L19 56C17 61 21 65 26 64L32 61C36 57 41 56 47 55C46 63 39 69 34 79Z"
    },
    {
     "body": "M44 30C44 20 50 11 57 7C64 12 68 21 66 31C60 34 50 34 44 30Z"
    },
    {
     "circle": [
      57,
      5,
      3.6
     ]
    },
    {
     "line": "M60 15L54 24"
    },
    {
     "dot": [
      40,
      40,
      3.2
     ]
    },
    {
     "dot": [
      25,
      57,
      2
     ]
    },
    {
     "body": "M24 90H76Q81 90 81 85V84Q81 79 76 79H24Q19 79 19 84V85Q19 90 24 90Z"
    }
   ],
   "i": [
    {
     "body": "M29 79C34 72 40 70 42 63H58C60 70 66 72 71 79Z"
    },
    {
     "body": "M40 56H60Q64 56 64 60V60Q64 64 60 64H40Q36 64 36 60V60Q36 56 40 56Z"
    },
    {
     "body": "M37 56L29 28L42 42L50 20L58 42L71 28L63 56Z"
    },
    {
     "circle": [
      29,
      25,
      4.5
     ]
    },
    {
     "circle": [
      50,
      16,
      5
     ]
    },
    {
     "circle": [
      71,
      25,
      4.5
     ]
    },
    {
     "line": "M39 49Q50 46 61 49"
    },
    {
     "body": "M24 90H76Q81 90 81 85V84Q81 79 76 79H24Q19 79 19 84V85Q19 90 24 90Z"
    }
   ]
  },
  "names": {
   "p": "Pawn",
   "r": "Rook",
   "b": "Bishop",
   "n": "Knight",
   "q": "Queen",
   "k": "King",
   "c": "Cardinal",
   "i": "Princess"
  }
 },
 "kelasu": {
  "parts": {
   "B": [
    {
     "circle": [
      50,
      50,
      30
     ]
    },
    {
     "emblemLine": "M50 33A17 17 0 1 1 49.9 33",
     "width": 2.4
    }
   ],
   "W": [
    {
     "circle": [
      50,
      50,
      40
     ]
    },
    {
     "emblem": "M50 19L56 28V58H44V28Z"
    },
    {
     "emblem": "M35 58H65V65H35Z"
    },
    {
     "emblem": "M46.5 65H53.5V76H46.5Z"
    },
    {
     "dot": [
      50,
      80,
      4
     ]
    }
   ],
   "R": [
    {
     "circle": [
      50,
      50,
      40
     ]
    },
    {
     "emblemLine": "M31 31L69 69M69 31L31 69",
     "width": 6
    },
    {
     "emblem": "M24 24L41 27L27 41Z"
    },
    {
     "emblem": "M76 24L59 27L73 41Z"
    },
    {
     "emblem": "M24 76L41 73L27 59Z"
    },
    {
     "emblem": "M76 76L59 73L73 59Z"
    }
   ],
   "D": [
    {
     "circle": [
      50,
      50,
      40
     ]
    },
    {
     "emblemLine": "M53 50A13 13 0 1 1 52.9 37M47 50A13 13 0 1 1 47.1 63",
     "width": 6
    }
   ],
   "C": [
    {
     "circle": [
      50,
      50,
      40
     ]
    },
    {
     "emblem": "M50 21L72 29V47C72 61 62 72 50 78C38 72 28 61 28 47V29Z"
    },
    {
     "emblemCut": "M36 38L50 50L64 38V47L50 59L36 47Z"
    }
   ],
   "G": [
    {
     "circle": [
      50,
      50,
      40
     ]
    },
    {
     "emblem": "M50 24L56.5 42H75L60 53L65.5 71L50 60L34.5 71L40 53L25 42H43.5Z"
    },
    {
     "emblemLine": "M30 78H70",
     "width": 5
    }
   ],
   "S": [
    {
     "body": "M50 9L85 29V71L50 91L15 71V29Z"
    },
    {
     "emblemLine": "M50 30L67 40V60L50 70L33 60V40Z M50 9V30M85 29L67 40M85 71L67 60M50 91V70M15 71L33 60M15 29L33 40",
     "width": 2.6
    }
   ]
  },
  "names": {
   "B": "Blank",
   "W": "Warrior",
   "R": "Runner",
   "D": "Diplomat",
   "C": "Champion",
   "G": "General",
   "S": "Stone"
  },
  "shades": {
   "light": "#ece6d3",
   "dark": "#d2c8ab"
  },
  "coords": {
   "onLight": "#a8997a",
   "onDark": "#f3eee0"
  },
  "tile": {
   "fill": "rgba(212, 160, 23, 0.18)",
   "stroke": "#c99a12"
  },
  "spentOpacity": 0.45
 },
 "lichen": {
  "pebble": "M50 14C70 13 86 27 87 47C88 68 72 86 50 86C28 87 12 71 13 50C13 29 29 15 50 14Z",
  "crown": "M30 62L26 36L39 48L50 30L61 48L74 36L70 62Z",
  "crownBase": "M30 62H70V69H30Z",
  "shine": "M30 30C38 22 52 20 62 23",
  "stone": {
   "fill": "#a9a397",
   "stroke": "#5d584f",
   "shine": "#d6d1c6"
  },
  "shades": {
   "light": "#dde6cf",
   "dark": "#cdd9ba"
  },
  "grid": "#a9b596",
  "halo": {
   "white": "#ffffff",
   "black": "#1e1e1e"
  },
  "coords": "#7f906b",
  "harvest": "#2a8f3a",
  "slot": {
   "fill": "rgba(255,255,255,0.35)",
   "stroke": "#6b6659"
  }
 },
 "lunch": {
  "health": [
   {
    "from": 0.99,
    "colour": "#2e7d32"
   },
   {
    "from": 0.5,
    "colour": "#c98a00"
   },
   {
    "from": 0,
    "colour": "#c62828"
   }
  ],
  "star": {
   "fill": "#f2c200",
   "stroke": "#7a5a00"
  },
  "stomp": "#6d4c41",
  "stunnedOpacity": 0.55
 }
};
