"""What conflict-detect takes: facts (fact-extract's output works as it is) and a tolerance.

Kept apart from the comparison (``conflicts``) so the tools' specs and the batch runner can name
the input models without the comparison rules.
"""

from __future__ import annotations

import math
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictFloat, StrictInt, StrictStr, field_validator

__all__ = ["FactInput", "FactSource", "Tolerance", "ValueType"]

ValueType = Literal["number", "currency", "percentage", "date", "text"]


class FactSource(BaseModel):
    """A source object as fact-extract writes it (``{"url", "title"}``, plus author/date)."""

    model_config = ConfigDict(extra="allow")

    url: str | None = Field(default=None, description="Where the fact was read.")
    title: str | None = Field(default=None, description="Title of the source document.")


class FactInput(BaseModel):
    """One fact: the seed's fields, and fact-extract's own output (extra fields are used when present)."""

    model_config = ConfigDict(extra="allow")

    entity: Annotated[
        str, Field(min_length=1, max_length=500, description="What the fact is about, e.g. 'AI Market'.")
    ]
    attribute: Annotated[
        str,
        Field(
            min_length=1, max_length=500, description="What is measured, e.g. 'Size 2024' (default 'value')."
        ),
    ] = "value"
    value: Annotated[
        StrictStr | StrictInt | StrictFloat,
        Field(description="The value as a string ('22.4', '$22.4 billion', 'Paris') or a number."),
    ]
    value_type: ValueType | None = Field(
        default=None,
        description="number|currency|percentage|date|text; inferred from the value when omitted.",
    )
    source: StrictStr | FactSource | None = Field(
        default=None, description="A source name, or a {url, title} object as fact-extract returns."
    )
    numeric_value: StrictFloat | StrictInt | None = Field(
        default=None,
        description="Normalised number (fact-extract output); used when the value string is not a number.",
    )
    currency: str | None = Field(default=None, description="ISO 4217 code, e.g. USD.")
    unit: str | None = Field(default=None, description="Unit or counted noun.")
    value_kind: str | None = Field(
        default=None, description="fact-extract's finer kind (growth, percentage_points...)."
    )
    period: StrictStr | StrictInt | dict[str, Any] | None = Field(
        default=None,
        description="The period the value is about: '2024', 'Q3 2024', or fact-extract's period object.",
    )
    is_projection: bool | None = Field(default=None, description="True when the value is a forecast.")
    qualifier: str | None = Field(
        default=None,
        description="fact-extract's qualifier ('about', 'more than', 'up to'...): bounds are respected.",
    )
    comparison: str | None = Field(
        default=None, description="'prior' for an earlier value quoted for comparison (fact-extract output)."
    )
    metric: str | None = Field(
        default=None,
        description="A result's metric (fact-extract output), e.g. 'BLEU'; spellings are normalised.",
    )
    dataset: str | None = Field(default=None, description="A result's dataset (fact-extract output).")

    @field_validator("entity", "attribute")
    @classmethod
    def _not_blank(cls, v: str) -> str:
        if not v.strip():
            raise ValueError("must not be blank")
        return v

    @field_validator("value")
    @classmethod
    def _value_present(cls, v: str | int | float) -> str | int | float:
        if isinstance(v, str) and not v.strip():
            raise ValueError("must not be blank")
        if isinstance(v, float) and not math.isfinite(v):
            raise ValueError("must be a finite number")
        return v


class Tolerance(BaseModel):
    """How far apart two numbers may be before they conflict."""

    model_config = ConfigDict(extra="ignore")

    numerical_threshold: float = Field(
        default=0.1,
        ge=0,
        allow_inf_nan=False,
        description="Largest relative difference still treated as agreement (0.1 = 10%; 0 flags any difference).",
    )


# ----------------------------------------------------------------------------- normalisation
