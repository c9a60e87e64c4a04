"""Matches: setup, the scoreboard, export and import of the match document."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from flask import Response, abort, flash, jsonify, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup

from referee.errors import RefereeError
from referee.match import Detail
from referee.matchfile import NOT_A_MATCH, NOT_JSON, TOO_DEEP, dump_match, load_document, read_match
from referee.rematch import rematch_dealer
from referee.rulesets import RULESETS, Ruleset, find_ruleset
from referee.rulesets.base import PLAYER_COUNT, PLAYER_COUNT_EXACT, TurnStyle
from referee.web.forms import (
    ActionForm,
    ImportForm,
    refuse_names,
    setup_form_class,
    setup_options,
)
from referee.web.forms.entry import entry_form
from referee.web.forms.fields import numbered
from referee.web.forms.options import fill_options, option_fields, refused_option
from referee.web.play import changes, duplicates, seating
from referee.web.play.access import (
    EDIT,
    Access,
    check_key,
    edit_page,
    find_table,
    open_match,
    table_blueprint,
    table_link,
    table_page,
)
from referee.web.play.limits import option_refusal
from referee.web.play.matchwrites import ImportMatch, SetUpAgain, StartMatch, StopMatch
from referee.web.show import i18n, jsontext, labels, scoresheet, sheetpage
from referee.web.store import door, reads
from referee.web.store.models import CardTable, Match, Player, Round
from referee.web.views import livepage, merges
from referee.web.views.houserules import find_set
from referee.web.views.live import round_in_play
from referee.web.views.main import rules_page
from referee.web.views.pages import (
    following,
    following_version,
    numbered_address,
    render_page,
    to_score_sheet,
)

bp = table_blueprint("matches", __name__)
PREFIX = "/<any(t,v):mode>/<key>"


@bp.get(PREFIX + "/new")
@edit_page
def choose(access: Access) -> Any:
    return render_page("matches/choose.html", access=access, rulesets=RULESETS.values())


def _ruleset(rules_id: str) -> Ruleset:
    rules = RULESETS.get(rules_id)
    if rules is None:
        abort(404)
    return rules


@bp.route(PREFIX + "/new/<rules_id>", methods=["GET", "POST"])
@edit_page
def setup(access: Access, rules_id: str) -> Any:
    return _setup_page(access, _ruleset(rules_id), None)


@bp.route(PREFIX + "/m/<int:match_id>/setup", methods=["GET", "POST"])
@edit_page
def edit_setup(access: Access, match_id: int) -> Any:
    """Players, first dealer, target and options may change until the first round is saved."""
    match = open_match(access, match_id)
    if match.rounds:
        flash(gettext("The target and options are fixed once the first round is saved."), "error")
        return to_score_sheet(access, match)
    return _setup_page(access, _ruleset(match.rules), match)


def _setup_page(access: Access, rules: Ruleset, match: Match | None) -> Any:
    """The setup form of a new match (``match`` None) or of a match with no round yet."""
    names = [player.name for player in access.table.players]
    form = setup_form_class(rules, names)()
    conflict: list[str] = []
    merge = None
    if match is not None and form.is_submitted():
        forms = _merge_forms(rules, names)
        loaded = merges.opened_thing(f"setup:{match.id}")
        unsettled = merges.settle_choices(form, forms, loaded)
    chosen = _options_asked(access, rules)
    if form.is_submitted() and (move := request.form.get("move")):
        _move_seat(form, move)  # a seat moved up or down (without JavaScript): nothing saved
    elif chosen is not None:  # a preset tapped: the form shows it, nothing is saved yet
        if form.is_submitted():
            pass
        elif match is None:
            _seat_everyone(form, access.table)
        else:
            _fill_setup(form, match, rules)
            form.match_version.data = str(match.version)
        _show_options(form, rules, chosen)
    elif form.is_submitted():
        if match is None and (done := door.repeated(form.once.data)):
            flash(gettext("This match was started already."))
            return redirect(done.location)
        if match is None:
            header = _read_setup(form, rules)
            if header is not None:
                starting = StartMatch(access.table, header, form.once.data, leads_to=_scoreboard_of)
                started = door.save_table(starting)
                assert isinstance(started, door.Saved)  # the setup was checked above
                return redirect(started.location)
        else:
            location = _scoreboard_of(match)
            seen = door.Seen(match_version=form.match_version.data, unchosen=unsettled)
            again = SetUpAgain(
                lambda: _read_setup(form, rules),
                seen=seen,
                once=form.once.data,
                location=location,
            )
            answer = door.save(again, match)
            if isinstance(answer, door.Saved):
                return redirect(location)
            if isinstance(answer, door.Conflict) and door.MATCH in answer.changed:
                conflict = [
                    gettext("This match was set up again on another phone meanwhile."),
                    gettext("Your entry is kept below: check it and save again."),
                ]
                form.match_version.data = str(match.version)
                form, merge = merges.merge_posted(
                    form, forms, None, loaded, unsettled, _setup_of(match)
                )
            elif isinstance(answer, door.Conflict) and loaded is not None:  # choices unmade
                merge = merges.choices_left(form, forms, loaded, unsettled)
                conflict = [merges.choose_first()]
    elif match is None:
        _seat_everyone(form, access.table)
    else:
        _fill_setup(form, match, rules)
        form.match_version.data = str(match.version)
    usual, more = option_fields(form, rules)
    page = render_page(
        "matches/setup.html",
        access=access,
        rules=rules,
        form=form,
        match=match,
        conflict=conflict,
        merge=merge,
        loaded=merges.seal_thing(
            f"setup:{match.id}", _setup_of(match), merge.contested if merge else ()
        )
        if match is not None
        else None,
        usual_options=usual,
        more_options=more,
        more_open=any(field.errors or field.data != field.default for field in more),
        presets=rules.presets,
        saved_sets=[saved for saved in access.table.house_rules if saved.rules == rules.id],
    )
    if conflict:
        return page.body, 409
    return page


def _move_seat(form: Any, move: str) -> None:
    """Swap a seat with the one above or below it (``move``: ``"2-up"``, ``"0-down"``)."""
    number, _, way = move.partition("-")
    seats = numbered(form, "seat")
    if not number.isdigit() or way not in ("up", "down"):
        return
    here = int(number)
    there = here - 1 if way == "up" else here + 1
    if 0 <= here < len(seats) and 0 <= there < len(seats):
        seats[here].data, seats[there].data = seats[there].data, seats[here].data


def _seat_everyone(form: Any, table: CardTable) -> None:
    """Seat the table's players in the order they were added, as far as the game allows."""
    typed = [player.name for player in sorted(table.players, key=lambda p: p.id)]
    for entry, name in zip(numbered(form, "seat"), typed, strict=False):
        entry.data = name


def _read_setup(form: Any, rules: Ruleset) -> dict[str, Any] | None:
    """The match header from a submitted setup form, checked by the engine; None if refused."""
    if not form.validate():
        return None
    seats = numbered(form, "seat")
    seated = [entry.data for entry in seats if entry.data]
    try:
        dealer = changes.seating(rules, seated, form.known, form.first_dealer.data)
        options = setup_options(form, rules)
        names = [entry.data for entry in numbered(form, "team")]
        teams = changes.teams_of(rules, seated, names)
        return changes.header_of(rules, seated, dealer, options, teams)
    except changes.SetupRefused as refused:
        if refused.field == "seat":
            named = [entry for entry in seats if entry.data == refused.name]
            named[1 if len(named) > 1 else 0].errors = [refused.message]
        elif refused.field == "first_dealer":
            form.first_dealer.errors = [refused.message]
        else:
            form.form_errors.append(refused.message)
        return None
    except RefereeError as error:
        if error.reason.key in (PLAYER_COUNT, PLAYER_COUNT_EXACT):
            seats[0].errors = [*seats[0].errors, i18n.error_text(error)]
        else:
            words = i18n.error_text(error)
            named = [str(value) for value in error.reason.params.values()]
            if not refused_option(form, rules, named, words):
                form.form_errors.append(words)
        return None


def _options_asked(access: Access, rules: Ruleset) -> dict[str, Any] | None:
    """The options of the preset or of the table's saved house rules tapped on the setup
    form (or named by the link that opened it), if any (else None)."""
    source = request.form if request.method == "POST" else request.args
    key = source.get("preset")
    if key:
        preset = next((p for p in rules.presets if p.key == key), None)
        return dict(preset.options) if preset is not None else None
    saved = find_set(access, source.get("house_rules"))
    if saved is not None and saved.rules == rules.id:
        return dict(saved.options or {})
    return None


def _show_options(form: Any, rules: Ruleset, options: dict[str, Any]) -> None:
    """Fill the form's options (and its target) with a preset's or a saved set's."""
    fill_options(form, rules, options)
    if "target" in rules.options:
        target = options.get("target", rules.declared("target").default_for(options))
        _show_target(form, target)
    if "hands" in options and getattr(form, "end", None) is not None:
        form.end.data, form.hands.data = "hands", options["hands"]


def _show_target(form: Any, target: Any) -> None:
    if target is None or getattr(form, "target", None) is None:
        return
    values = [next(iter(choice)) for choice in form.target.choices]
    form.custom_target.raw_data = None  # what was posted would be shown instead of the value
    if str(target) in values:
        form.target.data, form.custom_target.data = str(target), None
    else:
        form.target.data, form.custom_target.data = "custom", target


def _fill_setup(form: Any, match: Match, rules: Ruleset) -> None:
    _fill_from_setup(form, rules, _setup_of(match))


def _setup_of(match: Match) -> dict[str, Any]:
    """The match's setup as its form shows it (what a merge compares)."""
    options = dict(match.options or {})
    setup = {"players": match.player_names, "first_dealer": match.first_dealer, "options": options}
    if match.teams:
        setup["teams"] = {name: list(members) for name, members in match.teams.items()}
    return setup


def _fill_from_setup(form: Any, rules: Ruleset, setup: dict[str, Any]) -> None:
    for entry, name in zip(numbered(form, "seat"), setup.get("players") or [], strict=False):
        entry.data = name
    form.first_dealer.data = setup.get("first_dealer")
    team_of = {
        member: name for name, members in (setup.get("teams") or {}).items() for member in members
    }
    players = list(setup.get("players") or [])
    for entry, player in zip(numbered(form, "team"), players, strict=False):
        if player in team_of:
            entry.data = team_of[player]
    _show_options(form, rules, dict(setup.get("options") or {}))


def _merge_forms(rules: Ruleset, names: list[str]) -> merges.MergeForms:
    """How the setup form is made and filled, for merging a change onto the setup."""

    def make(_rows: Any, posted: bool) -> Any:
        return setup_form_class(rules, names)(**({} if posted else {"formdata": None}))

    def fill(form: Any, setup: dict[str, Any]) -> bool:
        _fill_from_setup(form, rules, setup)
        return True

    return merges.MergeForms(make, fill, [])


@bp.get(PREFIX + "/m/<int:match_id>/")
@table_page
def scoreboard(access: Access, match_id: int) -> Any:
    """The score sheet, rendered once per version, language and link (views/livepage.py);
    a phone that names the parts it shows gets the ones that changed."""
    key = access.key  # the key every address on the page carries
    found = reads.match_row(
        match_id, key if access.mode == EDIT else None, None if access.mode == EDIT else key
    )
    if found is None or found[2] is not None:  # not the table's, or deleted: 404 as ever
        open_match(access, match_id)
        abort(404)
    version = int(found[0])
    made = livepage.page_key(
        match_id,
        found[1],
        found[3],
        version,
        i18n.current(),
        access.mode,
        key,
        request.script_root,
        access.table.name,
    )
    shown = livepage.kept_page(made, lambda: _render_scoreboard(access, match_id, version))
    parts = livepage.Rendered.changed_since(shown, request.headers.get(livepage.HAVE_HEADER, ""))
    if parts is not None:
        response = Response(
            livepage.patch_document(shown, parts, generate_csrf), mimetype="text/html"
        )
        response.headers[livepage.PATCH_HEADER] = "1"
    elif request.query_string:  # the kept page's language switch returns to the bare path
        response = Response(_scoreboard_page(access, shown, shown.body, flashes=True))
    else:
        response = Response(livepage.for_request(shown.page, generate_csrf))
    response.vary.add(livepage.HAVE_HEADER)
    return response


def _scoreboard_page(access: Access, shown: livepage.Rendered, body: str, *, flashes: bool) -> str:
    """The score sheet's body in its page (``flashes``: this request's messages in it, else
    the mark that stands for them)."""
    more = {} if flashes else {"get_flashed_messages": livepage.flash_marks}
    return render_template(
        "matches/scoreboard.html",
        access=access,
        table=access.table,
        shown=shown,
        match={"id": shown.match_id, "rules": shown.rules},
        body=livepage.for_request(body, generate_csrf) if flashes else Markup(body),  # noqa: S704
        live=following_version(shown.match_id, shown.version, request.path),
        **more,
    )


def _render_scoreboard(
    access: Access, match_id: int, version: int
) -> tuple[livepage.Rendered, bool]:
    """The score sheet rendered with marks for what each request fills in; kept only if the
    match is still at the version the key names."""
    match = open_match(access, match_id)
    seen = reads.outlook(match, Detail.SHEET)
    sheet = scoresheet.build(match, seen.state)
    with livepage.token_marks():
        body = render_template(
            "matches/_scoreboard_body.html",
            access=access,
            table=access.table,
            match=match,
            sheet=sheet,
            lines=sheetpage.round_lines(sheet),
            view_round=numbered_address("rounds.show", match_id=match.id),
            edit_round=numbered_address("rounds.edit", match_id=match.id)
            if access.can_edit
            else None,
            pool=entry_form(find_ruleset(match.rules)).before(match, match.next_round_number)
            if seen.state
            else None,
            # A game entered by its final table only (gin) has no live round to offer.
            turn_by_turn=sheet.rules is None or sheet.rules.turn_style is not TurnStyle.NONE,
            error=seen.error,
            in_play=round_in_play(match),
            rematch_token=livepage.ONCE_MARK,
            csrf_token=lambda: livepage.TOKEN_MARK,
        )
    title = f"{labels.ruleset_name(match.rules)} · {', '.join(match.everyone)}"
    rendered = livepage.Rendered.split(match.id, match.rules, match.version, title, body)
    with livepage.token_marks():
        page = _scoreboard_page(access, rendered, body, flashes=False)
    rendered = dataclasses.replace(rendered, page=page)
    return rendered, match.version == version


@bp.post(PREFIX + "/m/<int:match_id>/stop")
@edit_page
def stop(access: Access, match_id: int) -> Any:
    """The players end a match with no fixed end (indian played for points, rummikub by
    default): the engine's standings say who won.  The button names the match's version: a
    deal saved meanwhile on another phone stops nothing, and the players see it first."""
    if not ActionForm().validate_on_submit():
        abort(400)
    match = open_match(access, match_id)
    if match.stopped:  # asked twice: it is done
        flash(gettext("The match is over."))
        return to_score_sheet(access, match)
    answer = door.save(
        StopMatch(seen=door.Seen(match_version=request.form.get("match_version"))), match
    )
    if isinstance(answer, door.Conflict):
        from referee.web.views.rounds import conflict_page

        return conflict_page(
            access,
            match,
            gettext("The match was changed on another phone meanwhile; it was not ended."),
        )
    if isinstance(answer, door.Refused):
        assert isinstance(answer.reason, RefereeError)
        flash(i18n.error_text(answer.reason), "error")
        return to_score_sheet(access, match)
    flash(gettext("The match is over."))
    return to_score_sheet(access, match)


@bp.get(PREFIX + "/m/<int:match_id>/rules")
@table_page
def match_rules(access: Access, match_id: int) -> Any:
    """The rules of the match's game with the values in force (its house rules applied)."""
    match = open_match(access, match_id)
    return rules_page(_ruleset(match.rules), match.options, access=access, match=match)


@bp.get(PREFIX + "/m/<int:match_id>/board")
@table_page
def big_board(access: Access, match_id: int) -> Any:
    """The totals alone, large, for a tablet in the middle of the table (it follows the match)."""
    match = open_match(access, match_id)
    seen = reads.outlook(match, Detail.SHEET)
    return render_page(
        "matches/board.html",
        access=access,
        match=match,
        sheet=scoresheet.build(match, seen.state),
        error=seen.error,
        live=following(access, match, request.path),
    )


@bp.post(PREFIX + "/m/<int:match_id>/rematch")
@edit_page
def rematch(access: Access, match_id: int) -> Any:
    """One tap: a new match with the same players, ruleset and options, and the next dealer.

    The button carries a one-time token: a double tap starts one match.
    """
    match = open_match(access, match_id)
    if not ActionForm().validate_on_submit():
        abort(400)
    token = request.form.get("once")
    if done := door.repeated(token):
        flash(gettext("This match was started already."))
        return redirect(done.location)
    seen = reads.outlook(match)
    if seen.state is None:
        flash(gettext("The referee cannot replay this match, so it cannot start its rematch."))
        return to_score_sheet(access, match)
    try:  # a new match: its house rules within today's ranges, even if this one's were not
        reads.call_engine(find_ruleset, match.rules, match.options)
    except RefereeError as error:
        flash(
            gettext(
                "The rematch cannot keep this match's house rules: %(reason)s. "
                "Set up the new match instead.",
                reason=i18n.error_text(error),
            )
        )
        return to_score_sheet(access, match)
    header = {
        "rules": match.rules,
        "options": dict(match.options or {}),
        "first_dealer": rematch_dealer(seen.state),
        "players": list(seen.state.players),  # the seating of the last round
    }
    if match.teams:  # the same players in the same seats: the same partners
        header["teams"] = dict(match.teams)
    answer = door.save_table(StartMatch(access.table, header, token, leads_to=_scoreboard_of))
    assert isinstance(answer, door.Saved)  # a new match is refused nothing checked above
    flash(gettext("Rematch started: %(name)s deals first.", name=header["first_dealer"]))
    return redirect(answer.location)


@bp.get(PREFIX + "/m/<int:match_id>/version")
def version(match_id: int) -> ResponseReturnValue:
    """Has the match changed? Its version, as an ETag: 304 while nothing changed.

    The pages that follow a match ask this about once a second.  It reads one
    small row (the version, through the key) and writes nothing, not even the
    session cookie; the answer may be cached only if it is revalidated.
    """
    mode, key = table_link()
    check_key(key)
    found = reads.match_version(
        match_id, key if mode == EDIT else None, key if mode != EDIT else None
    )
    if found is None:
        find_table(mode, key)  # a wrong key counts as one (404 or 429 there)
        abort(404)  # the key is right: the match is not there (any more)
    response = jsonify(version=found)
    response.set_etag(reads.etag(match_id, found))
    response.headers["Cache-Control"] = "no-cache"
    return response.make_conditional(request)


@bp.get(PREFIX + "/m/<int:match_id>/export")
@table_page
def export(access: Access, match_id: int) -> Response:
    match = open_match(access, match_id)
    body = json.dumps(reads.document(match), ensure_ascii=False, indent=2) + "\n"
    filename = f"{match.rules}-{match.created_at:%Y%m%d}-{match.id}.json"
    return Response(
        body,
        mimetype="application/json",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


@bp.post(PREFIX + "/import")
@edit_page
def import_match(access: Access) -> Any:
    form = ImportForm()
    if form.is_submitted() and (done := door.repeated(form.once.data)):
        flash(gettext("This match was imported already."))
        return redirect(done.location)
    existing = None
    if form.validate_on_submit():
        build = _import(access.table, form)
        if isinstance(build, AlreadyHere):
            existing = build.existing
        elif build is not None:
            importing = ImportMatch(access.table, build, form.once.data, leads_to=_scoreboard_of)
            answer = door.save_table(importing)
            if isinstance(answer, door.Saved):
                flash(gettext("Match imported."))
                return redirect(answer.location)
            # The same document, imported at the same moment elsewhere.
            existing = duplicates.imported(access.table, form.printed)
            if existing is None:
                raise RuntimeError("an import refused as a copy of no match")
            form.document.errors.append(_already_here())
    door.abandon()
    return render_page(  # 400: it shows why
        "matches/import.html", access=access, form=form, existing=existing
    )


@dataclass
class AlreadyHere:
    """The match an import repeats."""

    existing: Match


def _already_here() -> str:
    return gettext(
        "This match is already at this table (same players, game, options and rounds)."
        " Tick “Import it again as a copy” to keep a second one."
    )


@bp.get(PREFIX + "/import")
@edit_page
def import_page(access: Access) -> Any:
    return render_page("matches/import.html", access=access, form=ImportForm())


def _scoreboard_of(match: Match) -> str:
    return url_for("matches.scoreboard", match_id=match.id)


def _import(table: CardTable, form: ImportForm) -> Callable[[], Match] | AlreadyHere | None:
    """A match from an imported document, read by the engine and stored in canonical form
    (with the fingerprint of the document, unless it is a copy the player asked for)."""
    raw: bytes | str = ""
    if form.file.data and getattr(form.file.data, "filename", ""):
        raw = form.file.data.read()
    elif form.document.data and form.document.data.strip():
        raw = form.document.data
    if not raw:
        form.document.errors.append(gettext("Choose a match file or paste its document."))
        return None
    try:
        document = reads.call_engine(load_document, raw)
        refusal = _refuse_import(table, document)
        if refusal:
            form.document.errors.append(refusal)
            return None
        as_played = reads.restores_play(document)
        canonical = dump_match(reads.call_engine(read_match, document, as_played=as_played))
        refusal = _refuse_import(table, {"players": seating.everyone(canonical)})
        if refusal:
            form.document.errors.append(refusal)
            return None
        reads.replay(canonical, as_played=as_played)
    except RefereeError as error:
        if error.reason.key == NOT_A_MATCH:
            form.document.errors.append(gettext("This is not a referee-match/1 document."))
        elif error.reason.key in (NOT_JSON, TOO_DEEP) and (
            said := jsontext.problem(raw, "document")
        ):
            form.document.errors.append(said)
        else:
            form.document.errors.append(i18n.error_text(error))
        return None
    form.printed = duplicates.fingerprint(canonical)
    if not form.copy.data:
        existing = duplicates.existing_match(table, canonical, form.printed)
        if existing is not None:
            form.document.errors.append(_already_here())
            return AlreadyHere(existing)
        duplicates.release_deleted(table, form.printed)
    printed = form.printed

    def build() -> Match:
        by_name = {player.name: player for player in table.players}
        match = Match(
            table=table,
            rules=canonical["rules"],
            options=canonical["options"],
            first_dealer=canonical["first_dealer"],
            stopped=bool(canonical.get("stopped")),
            teams=canonical.get("teams"),
            fingerprint=None if form.copy.data else printed,
        )

        def player_for(name: str) -> Player:
            if name not in by_name:
                by_name[name] = Player(table=table, name=name)
            return by_name[name]

        seating.seat_players(match, canonical, player_for)
        for number, entry in enumerate(canonical["rounds"], start=1):
            match.stored_rounds.append(Round(number=number, entry=entry))
        return match

    return build


def _refuse_import(table: CardTable, document: Mapping[str, Any]) -> str | None:
    """Why the app refuses a document that the engine might accept (the limits of the forms)."""
    names = document.get("players")
    if isinstance(names, list) and all(isinstance(name, str) for name in names):
        refusal = refuse_names(names, [player.name for player in table.players])
        if refusal:
            return refusal
    rounds = document.get("rounds")
    if isinstance(rounds, list) and len(rounds) > reads.MAX_ROUNDS:
        return gettext(
            "A match can have at most %(max)s rounds; this one has %(count)s.",
            max=reads.MAX_ROUNDS,
            count=len(rounds),
        )
    return option_refusal(document.get("options"))
