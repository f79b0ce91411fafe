"""Request and response models of press (issue 13; docs/api.md "Press")."""

from typing import Literal

from pydantic import ConfigDict, Field

from functions.schemas.common import BaseModel  # validators built on first use (issue 9)


class SendMessageRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    to: Literal["ALL"] | list[str] = Field(
        description='Recipient powers (the sender is added), or "ALL" for public press.',
        examples=[["ENGLAND", "GERMANY"], "ALL"],
    )
    # the 4,000-character rule applies after trimming (the use case); this only bounds the body
    text: str = Field(max_length=8000, description="At most 4,000 characters of printable Unicode, trimmed.")
    client_timestamp: str | None = Field(default=None, max_length=40)


class SentMessage(BaseModel):
    message_id: str
    channel: str = Field(description='Members sorted and comma-joined ("ENGLAND,FRANCE"), or "ALL".')
    seq: int = Field(description="The message's position in its channel (1, 2, ...).")
    sent_at: str


class MessageView(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    message_id: str
    channel: str
    seq: int
    from_: str = Field(alias="from", serialization_alias="from")
    to: Literal["ALL"] | list[str]
    members: list[str]
    text: str
    sent_at: str
    phase: str
    cursor: int = Field(description="Pass the last one back as ?after= (inbox position, or channel seq).")
    client_timestamp: str | None = None


class MessageList(BaseModel):
    messages: list[MessageView]
    next_after: int = Field(description="The cursor to ask from next time.")
    more: bool = Field(description="More messages wait after next_after.")


class ChannelView(BaseModel):
    channel: str
    members: list[str]
    last_seq: int
    read_upto: int
    unread: int
    last_message: MessageView | None


class ChannelList(BaseModel):
    channels: list[ChannelView]
    unread_total: int


class MarkReadRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    upto: int = Field(ge=0, description="Mark the channel read up to this seq (never moves back).")


class MarkReadResponse(BaseModel):
    channel: str
    read_upto: int
    unread: int
    unread_total: int
