"""Reasons as message keys with parameters, so that the web layer can translate them.

A module defines each of its messages once, next to the rule it belongs to::

    GAP = define_message("meld.gap", "{missing} is missing between {low} and {high}")
    raise RuleError(GAP, missing="8S", low="7S", high="9S")

The English template is the translation key (``define_message`` is a Babel
keyword, so ``pybabel extract -k define_message:2`` finds every one).  Display
texts that are data rather than reasons (a ruleset's name) use :func:`define_text`.  A
parameter may itself be a :class:`Reason` (or a list of them), which is
rendered, and translated, in place.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeAlias

CATALOGUE: dict[str, str] = {}

Param: TypeAlias = "str | int | Reason | Sequence[Reason]"


def define_message(key: str, template: str) -> str:
    """Register ``template`` (English, ``str.format`` style) under ``key``; return the key."""
    known = CATALOGUE.setdefault(key, template)
    if known != template:
        raise ValueError(f"message key {key!r} is defined twice with different texts")
    return key


def define_text(key: str, text: str) -> str:
    """Register a display text (a ruleset's name, a label) under ``key``; return the text.

    Unlike a reason, the English text itself is what the caller keeps (as data on a
    ruleset, say); it is the translation key, so the web layer shows it through its
    catalogue (``gettext(text)``).  Registered like a message, it is extracted with
    ``pybabel extract -k define_text:2`` and held to the same "every engine text has a
    translation" check.
    """
    define_message(key, text)
    return text


@dataclass(frozen=True)
class Reason:
    """Why something is not allowed (or what happened), ready to be rendered."""

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def of(cls, key: str, **params: Any) -> Reason:
        if key not in CATALOGUE:
            raise KeyError(f"unknown message key {key!r}")
        return cls(key, params)

    @property
    def template(self) -> str:
        return CATALOGUE[self.key]

    @property
    def text(self) -> str:
        return self.render(lambda template: template)

    def render(self, translate: Callable[[str], str], joiner: str = "; ") -> str:
        """The message with ``translate`` applied to this template and every nested one."""
        values = {
            name: _render_param(value, translate, joiner) for name, value in self.params.items()
        }
        return translate(self.template).format(**values)

    def __str__(self) -> str:
        return self.text

    def facts(self) -> dict[str, Any]:
        """The reason as plain JSON values, exactly: :meth:`from_facts` makes an equal one
        (TypeError for a parameter that JSON cannot carry as it is)."""
        return {
            "key": self.key,
            "params": {name: _param_facts(v) for name, v in self.params.items()},
        }

    @classmethod
    def from_facts(cls, facts: Mapping[str, Any]) -> Reason:
        """The reason of :meth:`facts` (KeyError for a message this engine does not know)."""
        params = facts["params"]
        if not isinstance(params, Mapping):
            raise TypeError("a reason's parameters are a mapping")
        return cls.of(facts["key"], **{name: _param_of(v) for name, v in params.items()})


def _param_facts(value: Any) -> Any:
    if isinstance(value, Reason):
        return value.facts()
    if type(value) in (list, tuple):
        return {type(value).__name__: [_param_facts(item) for item in value]}
    if value is None or type(value) in (str, int, bool):  # not a subclass: as it is
        return value
    raise TypeError(f"a reason's parameter of type {type(value).__name__} is no JSON")


def _param_of(facts: Any) -> Any:
    if not isinstance(facts, Mapping):
        return facts
    if "key" in facts:
        return Reason.from_facts(facts)
    (kind, items), *others = facts.items()
    if others or kind not in SEQUENCES or not isinstance(items, list):
        raise TypeError("a reason's parameter is a reason, a list or a tuple")
    return SEQUENCES[kind](_param_of(item) for item in items)


SEQUENCES: dict[str, Callable[[Any], Sequence[Any]]] = {"list": list, "tuple": tuple}


def _render_param(value: Any, translate: Callable[[str], str], joiner: str) -> Any:
    if isinstance(value, Reason):
        return value.render(translate, joiner)
    if isinstance(value, list | tuple) and value and all(isinstance(v, Reason) for v in value):
        return translate(joiner).join(v.render(translate, joiner) for v in value)
    return value
