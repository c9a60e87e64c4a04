"""Where the app's files are: the templates, the migrations and the translations, all inside
the package so that a wheel or an image carries everything it serves."""

from pathlib import Path

WEB = Path(__file__).resolve().parents[1]
TEMPLATES = WEB / "templates"
MIGRATIONS = WEB / "migrations"
TRANSLATIONS = WEB / "translations"
# The source checkout (the catalogue's extraction runs there); not part of an installed app.
ROOT = WEB.parents[1]
