"""The app's settings from the environment, checked."""


class SettingError(ValueError):
    """A setting of the environment that the app cannot use, said in a sentence."""
