"""A table's own named sets of house rules ("our house rules"): create, edit, delete, use.

Each set is a ruleset and its options, checked by the engine when saved
(``Ruleset.check_options``: a refusal shows its words next to the form and
saves nothing).  A match started from a set copies its options.  Writes lock
the table's row (:func:`~referee.web.play.access.edit_page`); an edit or a deletion
names the set's version, so one made meanwhile on another phone is a 409 that
keeps what was typed, and the database's version check catches the rest.
"""

from __future__ import annotations

from typing import Any

from flask import abort, flash, redirect, request, url_for
from flask_babel import gettext

from referee.errors import RefereeError
from referee.rulesets import RULESETS, Ruleset
from referee.web.forms import ActionForm
from referee.web.forms.options import (
    chosen_options,
    fill_options,
    house_rules_form_class,
    option_fields,
    refused_option,
)
from referee.web.play.access import Access, edit_page, table_blueprint
from referee.web.play.names import name_key
from referee.web.play.tablewrites import DeleteHouseRules, SaveHouseRules
from referee.web.show import i18n
from referee.web.store import door, reads
from referee.web.store.models import HouseRules
from referee.web.views import merges
from referee.web.views.pages import render_page

bp = table_blueprint("houserules", __name__)
PREFIX = "/t/<key>/house-rules"


def _ruleset(rules_id: str) -> Ruleset:
    rules = RULESETS.get(rules_id)
    if rules is None:
        abort(404)
    return rules


def find_set(access: Access, set_id: Any) -> HouseRules | None:
    """The table's set with this id (None if it is not one of the table's)."""
    value = reads.posted_number(set_id)
    return next((found for found in access.table.house_rules if found.id == value), None)


def _set(access: Access, set_id: int) -> HouseRules:
    found = find_set(access, set_id)
    if found is None:
        abort(404)
    return found


@bp.route(PREFIX + "/new/<rules_id>", methods=["GET", "POST"])
@edit_page
def new(access: Access, rules_id: str) -> Any:
    return _form_page(access, _ruleset(rules_id), None)


@bp.route(PREFIX + "/<int:set_id>", methods=["GET", "POST"])
@edit_page
def edit(access: Access, set_id: int) -> Any:
    found = _set(access, set_id)
    return _form_page(access, _ruleset(found.rules), found)


def _form_page(access: Access, rules: Ruleset, found: HouseRules | None) -> Any:
    form = house_rules_form_class(rules)()
    if not form.is_submitted():
        if found is not None:
            form.name.data = found.name
            form.version.data = str(found.version)
            fill_options(form, rules, found.options or {}, goal=True)
        return _render(access, rules, form, found, [])
    if found is None and (done := door.repeated(form.once.data)):
        flash(gettext("These house rules were saved already."))
        return redirect(done.location)
    forms = _merge_forms(rules)
    loaded = merges.opened_thing(f"house-rules:{found.id}") if found is not None else None
    unsettled = merges.settle_choices(form, forms, loaded)
    if form.validate():
        options = _checked(form, rules)
        if options is not None and _name_free(access, form, found):
            location = url_for("tables.show") + "#house-rules"
            once = form.once.data if found is None else None
            seen = (
                door.Seen(version=form.version.data, unchosen=unsettled) if found else door.Seen()
            )
            saving = SaveHouseRules(
                access.table, rules.id, form.name.data, options, found, once, location, seen
            )
            # The same name given on another phone at the same instant: the unique constraint
            # refuses it, and the app answers that IntegrityError with a 409.
            answer = door.save_table(saving)
            if isinstance(answer, door.Conflict) and found is not None:
                return _conflict_page(access, rules, form, found, answer, forms, loaded, unsettled)
            flash(gettext("House rules saved: %(name)s", name=form.name.data))
            return redirect(location)
    return _render(access, rules, form, found, [])


def _conflict_page(
    access: Access,
    rules: Ruleset,
    form: Any,
    found: HouseRules,
    answer: door.Conflict,
    forms: merges.MergeForms,
    loaded: Any,
    unsettled: tuple[str, ...],
) -> Any:
    """The edit not saved: the set changed on another phone (what it now reads, the entry
    kept, merged), or the choices offered between both phones' values not all made."""
    if door.MATCH not in answer.changed:
        merge = merges.choices_left(form, forms, loaded, unsettled)
        return _render(access, rules, form, found, [merges.choose_first()], merge)
    conflict = [
        gettext(
            "These house rules were changed on another phone meanwhile; they now read as %(name)s.",
            name=found.name,
        ),
        gettext("Your entry is kept below: check it and save again."),
    ]
    form.version.data = str(found.version)
    form, merge = merges.merge_posted(form, forms, None, loaded, unsettled, _set_of(found))
    return _render(access, rules, form, found, conflict, merge)


def _set_of(found: HouseRules) -> dict[str, Any]:
    """A set as its form shows it (what a merge compares)."""
    return {"name": found.name, "options": dict(found.options or {})}


def _merge_forms(rules: Ruleset) -> merges.MergeForms:
    """How a set's form is made and filled, for merging an edit onto the set."""

    def make(_rows: Any, posted: bool) -> Any:
        return house_rules_form_class(rules)(**({} if posted else {"formdata": None}))

    def fill(form: Any, saved: dict[str, Any]) -> bool:
        form.name.data = saved.get("name")
        fill_options(form, rules, saved.get("options") or {}, goal=True)
        return True

    return merges.MergeForms(make, fill, [])


def _render(
    access: Access,
    rules: Ruleset,
    form: Any,
    found: HouseRules | None,
    conflict: list[str],
    merge: merges.MergeShown | None = None,
) -> Any:
    usual, more = option_fields(form, rules, goal=True)
    page = render_page(
        "tables/house_rules.html",
        access=access,
        rules=rules,
        form=form,
        found=found,
        usual_options=usual,
        more_options=more,
        conflict=conflict,
        merge=merge,
        loaded=merges.seal_thing(
            f"house-rules:{found.id}", _set_of(found), merge.contested if merge else ()
        )
        if found is not None
        else None,
        delete_form=ActionForm(formdata=None),
    )
    if conflict:
        return page.body, 409
    return page


def _checked(form: Any, rules: Ruleset) -> dict[str, Any] | None:
    """The options chosen, checked by the engine; None (with its words shown) if refused."""
    options = chosen_options(form, rules, goal=True)
    try:
        return rules.check_options(options)
    except RefereeError as error:
        words = i18n.error_text(error)
        named = [str(value) for value in error.reason.params.values()]
        if not refused_option(form, rules, named, words, goal=True):
            form.form_errors.append(words)
        return None


def _name_free(access: Access, form: Any, found: HouseRules | None) -> bool:
    taken = [
        other
        for other in access.table.house_rules
        if other is not found and name_key(other.name) == name_key(form.name.data)
    ]
    if taken:
        form.name.errors.append(
            gettext("The table has house rules called %(name)s already.", name=taken[0].name)
        )
    return not taken


@bp.post(PREFIX + "/<int:set_id>/delete")
@edit_page
def delete(access: Access, set_id: int) -> Any:
    if not ActionForm().validate_on_submit():
        abort(400)
    found = find_set(access, set_id)
    if found is None:  # deleted already (a double tap, another phone)
        flash(gettext("These house rules are deleted."))
        return redirect(url_for("tables.show") + "#house-rules")
    name = found.name
    answer = door.save_table(
        DeleteHouseRules(found, seen=door.Seen(version=request.form.get("version")))
    )
    if isinstance(answer, door.Conflict):
        rules = _ruleset(found.rules)
        form = house_rules_form_class(rules)(formdata=None)
        form.name.data, form.version.data = found.name, str(found.version)
        fill_options(form, rules, found.options or {}, goal=True)
        conflict = [
            gettext(
                "These house rules were changed on another phone meanwhile; nothing was"
                " deleted. They now read as below: delete them again if you still want to."
            )
        ]
        return _render(access, rules, form, found, conflict)
    flash(gettext("House rules deleted: %(name)s", name=name))
    return redirect(url_for("tables.show") + "#house-rules")
