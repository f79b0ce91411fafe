"""Request and answer models of the routes that reach players (issue 33): the live socket's
address, notice preferences and push devices (docs/notifications.md, "Reaching players")."""

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Mode = Literal["immediate", "digest", "never"]


class LiveAddress(BaseModel):
    """Where the socket is. No subprotocol: the socket is opened with none (the API selects none,
    so one offered fails the handshake) and the token rides in the subscribe frame (issue 29)."""

    url: str | None = Field(description="Where to open the socket (relative: on this origin); null: poll")


class KindModes(BaseModel):
    model_config = ConfigDict(extra="forbid")

    reminder: Mode | None = None
    turn_result: Mode | None = None
    press: Mode | None = None
    game_over: Mode | None = None


class PreferenceChoices(BaseModel):
    model_config = ConfigDict(extra="forbid")

    mail: KindModes | None = None
    push: KindModes | None = None


class PreferencesRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    preferences: PreferenceChoices


class Preferences(BaseModel):
    preferences: dict[str, dict[str, Mode]]
    kinds: list[str]
    modes: list[str]
    push_key: str | None = Field(description="VAPID public key (applicationServerKey); null: no push here")
    mail: bool = Field(description="Whether this deployment sends mail")


class PushKeys(BaseModel):
    model_config = ConfigDict(extra="ignore")

    p256dh: str = Field(min_length=16, max_length=200)
    auth: str = Field(min_length=8, max_length=100)


class PushSubscriptionJson(BaseModel):
    """``PushSubscription.toJSON()`` as the browser makes it."""

    model_config = ConfigDict(extra="ignore")

    endpoint: str = Field(min_length=8, max_length=1000)
    keys: PushKeys


class PushDeviceRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    subscription: PushSubscriptionJson
    label: str = Field(default="", max_length=60, pattern=r"^[^\x00-\x1f\x7f]*$")


class PushDeviceView(BaseModel):
    device_id: str
    label: str
    created_at: str


class PushDevices(BaseModel):
    devices: list[PushDeviceView]
