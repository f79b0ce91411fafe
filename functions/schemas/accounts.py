"""Request and answer models of the account routes (issue 15; docs/accounts.md has the contract)."""

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr

from functions.schemas.common import STAGE_TEXT, Stage

EMAIL = r"^[^@\s]{1,64}@[^@\s]{1,190}\.[^@\s]{1,63}$"


class _Request(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class SignUpRequest(_Request):
    email: str = Field(pattern=EMAIL, max_length=254, examples=["ada@example.com"])
    password: SecretStr = Field(min_length=1, max_length=256,
                                description="The pool's policy: 8+ characters with upper, lower and digits")
    display_name: str = Field(min_length=1, max_length=40, pattern=r"^[^\x00-\x1f\x7f]+$",
                              description="Shown to other players unless a game is anonymous")


class SignUpResponse(BaseModel):
    user_id: str
    confirmation: Literal["required", "none"]


class ConfirmRequest(_Request):
    email: str = Field(pattern=EMAIL, max_length=254)
    # repr=False: Powertools logs a route's arguments at DEBUG; the mailed code must not be in them
    code: str = Field(min_length=1, max_length=64, repr=False)


class ConfirmResponse(BaseModel):
    confirmed: Literal[True] = True


class ForgotPasswordRequest(_Request):
    email: str = Field(pattern=EMAIL, max_length=254)


class ForgotPasswordResponse(BaseModel):
    requested: Literal[True] = Field(
        default=True, description="If the address has an account, a reset code was mailed to it.")


class ResetPasswordRequest(_Request):
    email: str = Field(pattern=EMAIL, max_length=254)
    code: str = Field(min_length=1, max_length=64, repr=False)
    password: SecretStr = Field(min_length=1, max_length=256,
                                description="The pool's policy: 8+ characters with upper, lower and digits")


class ResetPasswordResponse(BaseModel):
    reset: Literal[True] = True


class SignInRequest(_Request):
    email: str = Field(pattern=EMAIL, max_length=254)
    password: SecretStr = Field(min_length=1, max_length=256)


class RefreshRequest(_Request):
    refresh_token: SecretStr = Field(min_length=1, max_length=8192)


class UserView(BaseModel):
    user_id: str
    display_name: str


class RefreshResponse(BaseModel):
    id_token: str = Field(description="Send this one: Authorization: Bearer <id_token>")
    access_token: str
    expires_in: int
    user: UserView


class SignInResponse(RefreshResponse):
    refresh_token: str


class MyGame(BaseModel):
    game_id: str
    name: str
    game: str = Field(description="diplomacy or backgammon")
    variant: str
    seats_filled: int = Field(description="Seats taken, of seats_total (dummy powers are not seats)")
    seats_total: int
    stage: Stage = Field(description=STAGE_TEXT)
    power: str | None = Field(description="The account's seat; null when it only created the game")
    phase: str
    deadline: str | None
    press: str | None = Field(default=None, description="Diplomacy: the press mode (full, public_only, none, "
                              "rulebook); null for a kind without press")
    fog: bool = Field(default=False, description="Played in fog of war: each power sees only near its units")
    orders_due: bool
    unread_press: int
    is_creator: bool
    status: str


class MyGames(BaseModel):
    games: list[MyGame]


class BindSeatRequest(_Request):
    game_id: str = Field(min_length=1, max_length=64)
    token: SecretStr = Field(min_length=1, max_length=256)


class BoundSeat(BaseModel):
    game_id: str
    power: str
