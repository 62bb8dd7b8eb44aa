"""Options the commands share."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

import typer


class Lang(StrEnum):
    """Interface language."""

    zh = "zh"
    en = "en"


LangOption = Annotated[Lang, typer.Option("--lang", help="界面语言 language: zh | en")]
