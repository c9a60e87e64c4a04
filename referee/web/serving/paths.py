"""Where the app's files are: the templates, the migrations and the translations."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
TEMPLATES = ROOT / "templates"
MIGRATIONS = ROOT / "migrations"
TRANSLATIONS = Path(__file__).resolve().parents[1] / "translations"
