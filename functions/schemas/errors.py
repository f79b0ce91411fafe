"""The body of every 4xx/5xx answer (docs/api.md "Errors").

Part of ``functions.schemas.api``: import it from there (``schemas.ErrorBody``).
"""

from pydantic import ConfigDict, Field

from functions.schemas.common import BaseModel


# Every 4xx/5xx answer (docs/api.md "Errors"). The handler writes these as dicts, so only
# the OpenAPI document reads the model. (A docstring would become its schema's description.)
class ErrorBody(BaseModel):
    model_config = ConfigDict(extra="allow")

    code: str = Field(examples=["STALE_PHASE"])
    message: str
