"""Spanish and English words of the web UI, and card names (Italian for Italian decks)."""

from __future__ import annotations

from typing import Final

from companion.cards import Card, Rank, Suit

LOCALES: Final = ("es", "en")

#: Deck styles with Italian suits, whose courts are numbered 8, 9, 10 and named in Italian.
ITALIAN_STYLES: Final = frozenset({"napoletane", "bergamasche", "piacentine", "siciliane", "trevisane"})

RANK_NAMES: Final[dict[str, dict[Rank, str]]] = {
    "es": {
        Rank.AS: "As",
        Rank.DOS: "Dos",
        Rank.TRES: "Tres",
        Rank.CUATRO: "Cuatro",
        Rank.CINCO: "Cinco",
        Rank.SEIS: "Seis",
        Rank.SIETE: "Siete",
        Rank.OCHO: "Ocho",
        Rank.NUEVE: "Nueve",
        Rank.SOTA: "Sota",
        Rank.CABALLO: "Caballo",
        Rank.REY: "Rey",
    },
    "en": {
        Rank.AS: "Ace",
        Rank.DOS: "Two",
        Rank.TRES: "Three",
        Rank.CUATRO: "Four",
        Rank.CINCO: "Five",
        Rank.SEIS: "Six",
        Rank.SIETE: "Seven",
        Rank.OCHO: "Eight",
        Rank.NUEVE: "Nine",
        Rank.SOTA: "Jack (sota)",
        Rank.CABALLO: "Knight (caballo)",
        Rank.REY: "King (rey)",
    },
    "it": {
        Rank.AS: "Asso",
        Rank.DOS: "Due",
        Rank.TRES: "Tre",
        Rank.CUATRO: "Quattro",
        Rank.CINCO: "Cinque",
        Rank.SEIS: "Sei",
        Rank.SIETE: "Sette",
        Rank.SOTA: "Fante",
        Rank.CABALLO: "Cavallo",
        Rank.REY: "Re",
    },
}

SUIT_NAMES: Final[dict[str, dict[Suit, str]]] = {
    "es": {Suit.OROS: "oros", Suit.COPAS: "copas", Suit.ESPADAS: "espadas", Suit.BASTOS: "bastos"},
    "en": {Suit.OROS: "coins", Suit.COPAS: "cups", Suit.ESPADAS: "swords", Suit.BASTOS: "clubs"},
    "it": {Suit.OROS: "denari", Suit.COPAS: "coppe", Suit.ESPADAS: "spade", Suit.BASTOS: "bastoni"},
}

_OF: Final = {"es": "de", "en": "of", "it": "di"}

#: The engine's one-line trick reasons (after "<card>: "), in Spanish.
REASONS_ES: Final[dict[str, str]] = {
    "trump beats the suit led": "el triunfo gana al palo de salida",
    "highest trump": "el triunfo más alto",
    "led, nobody followed the suit or trumped": "salió y nadie asistió ni echó triunfo",
    "highest card of the suit led": "la carta más alta del palo de salida",
}

#: What the pages say, by key; every key exists in every locale (a test checks it).
MESSAGES: Final[dict[str, dict[str, str]]] = {
    "es": {
        "title": "Brisca: marcador",
        "scoreboard": "Marcador",
        "camera": "Cámara",
        "new_game": "Nueva partida",
        "corrections": "Correcciones",
        "history": "Historial",
        "tournaments": "Torneos",
        "operator": "Operador",
        "sign_in": "Entrar",
        "sign_out": "Salir",
        "pin": "PIN del operador",
        "points": "puntos",
        "tricks": "bazas",
        "trump": "Triunfo",
        "on_table": "En la mesa",
        "to_play": "Juega",
        "last_trick": "Última baza",
        "won_by": "la gana",
        "unseen": "Cartas sin ver",
        "chart": "Puntos baza a baza",
        "game_over": "Partida terminada",
        "winner": "Gana",
        "draw": "Empate",
        "open_winner": "Aún sin decidir: según resulten las jugadas por confirmar, la partida puede ser de",
        "open_points": "El ganador no cambia con las jugadas por confirmar; los puntos pueden ser también",
        "open_results": "Lo que deciden las jugadas por confirmar",
        "open_results_help": (
            "Cada carta se juega una vez: estas jugadas solo pueden tener las cartas unas de otras. "
            "Cada fila es un orden de sus cartas que deja cada baza, salvo la última, a quien la ganó "
            "(lo mostró la salida siguiente)."
        ),
        "as_recorded": "como está anotado",
        "tie_last-trick": "empate a puntos: gana quien se llevó la última baza",
        "tie_more-cards": "empate a puntos: gana quien ganó más cartas",
        "camera_ok": "Cámara conectada",
        "camera_reconnecting": "Cámara: reconectando…",
        "camera_lost": "Cámara perdida",
        "no_frame": "Aún no hay imagen de la cámara.",
        "offline": "Sin conexión: reconectando…",
        "flagged": "Por confirmar",
        "flagged_help": "La cámara no está segura de estas jugadas: confírmelas o corríjalas.",
        "confirm": "Confirmar",
        "pick": "Es otra carta",
        "move": "Mover a",
        "void": "Anular",
        "undo": "Deshacer la última",
        "add_event": "Añadir jugada",
        "event_log": "Registro",
        "amend": "Corregir",
        "seat": "Asiento",
        "card": "Carta",
        "kind": "Tipo",
        "players": "Jugadores (uno por línea, en orden de juego)",
        "first": "Es mano",
        "rules": "Reglas",
        "options": "Opciones (JSON)",
        "deck": "Baraja",
        "calibration": "Calibración: pulse las cuatro esquinas de la mesa",
        "detect_markers": "Detectar marcadores",
        "clear": "Borrar",
        "start": "Empezar",
        "trick": "Baza",
        "leader": "Sale",
        "reason": "Por qué",
        "evidence": "Prueba",
        "no_evidence": "Sin imagen para esta baza.",
        "readings": "Lecturas",
        "download_json": "Descargar JSON",
        "download_csv": "Descargar CSV",
        "import": "Importar un registro (JSON o CSV)",
        "no_tricks": "Aún no hay bazas.",
        "error": "No se pudo hacer",
        "back": "Volver",
        "operator_only": "Solo el operador puede cambiar la partida.",
        "wrong_pin": "PIN incorrecto.",
        "signed_in": "Ha entrado como operador.",
        "done": "Hecho.",
        "issues": "Avisos",
        "team": "Equipo",
        "source": "Origen",
        "confidence": "Confianza",
        "alternatives": "Alternativas",
        "language": "Idioma",
        "none": "ninguna",
        "games": "Juegos",
        "stored_games": "Juegos guardados",
        "no_games": "Todavía no hay juegos guardados.",
        "newest": "Los más recientes primero.",
        "started": "Empezado",
        "players_short": "Jugadores",
        "status": "Estado",
        "status_live": "en juego",
        "status_complete": "terminado",
        "status_abandoned": "abandonado",
        "result": "Resultado",
        "to_confirm": "Por confirmar",
        "may_change": "pueden cambiar el resultado",
        "beyond_working_out": "no se puede calcular lo que cambian",
        "continue": "Continuar",
        "on_screen": "en pantalla",
        "continue_needs_serve": "Este servidor puntúa desde la cámara: continúe el juego {game} con "
        "companion serve --game {game}",
    },
    "en": {
        "title": "Brisca scoreboard",
        "scoreboard": "Scoreboard",
        "camera": "Camera",
        "new_game": "New game",
        "corrections": "Corrections",
        "history": "History",
        "tournaments": "Tournaments",
        "operator": "Operator",
        "sign_in": "Sign in",
        "sign_out": "Sign out",
        "pin": "Operator PIN",
        "points": "points",
        "tricks": "tricks",
        "trump": "Trump",
        "on_table": "On the table",
        "to_play": "To play",
        "last_trick": "Last trick",
        "won_by": "won by",
        "unseen": "Cards not seen yet",
        "chart": "Points trick by trick",
        "game_over": "Game over",
        "winner": "Winner",
        "draw": "Draw",
        "open_winner": "Not settled yet: as the plays to confirm turn out, the game may also go to",
        "open_points": "The winner stands however the plays to confirm turn out; the points may also be",
        "open_results": "What the plays to confirm decide",
        "open_results_help": (
            "Each card is played once, so these plays can only hold each other's cards. "
            "Each row is an order of their cards that leaves every trick but the last to whoever won "
            "it (the next lead showed who did)."
        ),
        "as_recorded": "as recorded",
        "tie_last-trick": "tied on points: the winner of the last trick wins",
        "tie_more-cards": "tied on points: whoever won more cards wins",
        "camera_ok": "Camera connected",
        "camera_reconnecting": "Camera: reconnecting…",
        "camera_lost": "Camera lost",
        "no_frame": "No camera image yet.",
        "offline": "Offline: reconnecting…",
        "flagged": "To confirm",
        "flagged_help": "The camera is not sure of these plays: confirm or correct them.",
        "confirm": "Confirm",
        "pick": "It is another card",
        "move": "Move to",
        "void": "Void",
        "undo": "Undo the last one",
        "add_event": "Add a play",
        "event_log": "Event log",
        "amend": "Correct",
        "seat": "Seat",
        "card": "Card",
        "kind": "Kind",
        "players": "Players (one a line, in playing order)",
        "first": "Leads first",
        "rules": "Rules",
        "options": "Options (JSON)",
        "deck": "Deck",
        "calibration": "Calibration: click the four corners of the table",
        "detect_markers": "Detect markers",
        "clear": "Clear",
        "start": "Start",
        "trick": "Trick",
        "leader": "Leads",
        "reason": "Why",
        "evidence": "Evidence",
        "no_evidence": "No image for this trick.",
        "readings": "Readings",
        "download_json": "Download JSON",
        "download_csv": "Download CSV",
        "import": "Import a record (JSON or CSV)",
        "no_tricks": "No tricks yet.",
        "error": "Could not do that",
        "back": "Back",
        "operator_only": "Only the operator can change the game.",
        "wrong_pin": "Wrong PIN.",
        "signed_in": "Signed in as operator.",
        "done": "Done.",
        "issues": "Warnings",
        "team": "Team",
        "source": "Source",
        "confidence": "Confidence",
        "alternatives": "Alternatives",
        "language": "Language",
        "none": "none",
        "games": "Games",
        "stored_games": "Stored games",
        "no_games": "No stored games yet.",
        "newest": "Newest first.",
        "started": "Started",
        "players_short": "Players",
        "status": "Status",
        "status_live": "in play",
        "status_complete": "finished",
        "status_abandoned": "abandoned",
        "result": "Result",
        "to_confirm": "To confirm",
        "may_change": "may change the result",
        "beyond_working_out": "what they change cannot be worked out",
        "continue": "Continue",
        "on_screen": "on screen",
        "continue_needs_serve": "This server scores from the camera: continue game {game} with "
        "companion serve --game {game}",
    },
}


def card_language(locale: str, deck_style: str) -> str:
    """The language of card names: Italian for Italian decks, else the page's."""
    return "it" if deck_style in ITALIAN_STYLES else locale


def card_name(card: Card, language: str) -> str:
    """``Card.parse("11B")`` -> "Caballo de bastos" (es), "Cavallo di bastoni" (it)."""
    return f"{RANK_NAMES[language][card.rank]} {_OF[language]} {SUIT_NAMES[language][card.suit]}"


def rank_label(card: Card, language: str) -> str:
    """The number printed on the card: Italian decks number their courts 8, 9, 10."""
    if language == "it" and card.rank >= Rank.SOTA:
        return str(int(card.rank) - 2)
    return str(int(card.rank))


def reason(text: str, locale: str, language: str) -> str:
    """The engine's ``"1O: trump beats the suit led"`` with the card named, in ``locale``."""
    code, sep, why = text.partition(": ")
    try:
        card = Card.parse(code)
    except ValueError:
        return text
    if locale == "es":
        why = REASONS_ES.get(why, why)
    return f"{card_name(card, language)}{sep}{why}"


def best_locale(requested: str | None, browser: str | None) -> str:
    """The locale asked for (the switch), else the browser's best match, else Spanish."""
    for candidate in (requested, browser):
        if candidate in LOCALES:
            return candidate
    return LOCALES[0]
