"""Write tests/instances/corpus/<source>.json: JSON Schemas exactly as real frameworks emit them.

Each file is a JSON array of {"name", "source", "schema"}, for testing an instance generator on the
schemas that hosts really publish. The sources:

- pydantic: `Model.model_json_schema()` (validation mode) of pydantic v2 models, and a few
  `TypeAdapter(...).json_schema()`, covering the idioms people use (enums, Literal, Optional,
  nested and recursive models, discriminated and plain unions, constrained types, tuples, sets,
  dicts, formats, aliases, generics, `json_schema_extra`, `extra="forbid"`).
- fastapi: the request bodies of a FastAPI app's `app.openapi()`, each made standalone: the
  referenced component becomes the root (or a `$ref` to it when it is recursive) and every
  component it needs goes under `$defs`, `#/components/schemas/X` rewritten to `#/$defs/X`.
  Needs fastapi and email-validator (the EmailStr fields that FastAPI apps use).
- mcp: the `inputSchema` (and `outputSchema`, named `<tool>.output`, when it differs from an
  earlier tool's in more than its title) of the tools of an `MCPServer` (mcp 2's name for
  FastMCP) as its tools/list sends them.
- openai: `openai.pydantic_function_tool(Model)["function"]["parameters"]` (strict function
  calling), and `langchain_core`'s `convert_to_openai_tool` on typed functions and models (named
  `langchain.<name>`). Needs openai and langchain-core.
- zod: zod-to-json-schema's output for zod 3 schemas (its default draft-07 target, a few with the
  2019-09 target, named `2019-09.<name>`), and zod 4's native `z.toJSONSchema()` (named
  `v4.<name>`). The node script is ZOD_SCRIPT below; it runs only when the environment variable
  ZOD_CORPUS_DIR names a directory where `npm install zod@3 zod-to-json-schema zod4@npm:zod@4`
  was run and `node` is on PATH; otherwise zod.json is left as it is on disk.
- composition: hand-written JSON Schema 2020-12 documents using what the frameworks do not emit
  ($anchor, embedded $id, if/then/else, dependentRequired, unevaluated*, contains, ...).

Every schema is checked with its dialect's metaschema (2020-12 when `$schema` is absent); one that
fails is dropped with a warning. Run `python tools/build_schema_corpus.py` to rewrite the files of
the sources whose libraries are importable, `--check` to exit 1 when any of them differs from what
would be written, `--summary` to print the counts and the keywords used in the files on disk.
"""

import argparse
import asyncio
import copy
import enum
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "instances" / "corpus"

Entry = dict[str, Any]


def _entry(source: str, name: str, schema: Any) -> Entry:
    return {"name": name, "source": source, "schema": schema}


# ---------------------------------------------------------------------------------------------
# pydantic


def pydantic_schemas() -> list[Entry]:
    import datetime as dt
    import re
    import uuid
    from decimal import Decimal
    from ipaddress import IPv4Address
    from ipaddress import IPv4Network
    from ipaddress import IPv6Address
    from pathlib import Path as FsPath
    from typing import Annotated
    from typing import Generic
    from typing import Literal
    from typing import TypeVar

    from pydantic import AliasChoices
    from pydantic import AnyHttpUrl
    from pydantic import AnyUrl
    from pydantic import AwareDatetime
    from pydantic import Base64Bytes
    from pydantic import BaseModel
    from pydantic import ConfigDict
    from pydantic import Discriminator
    from pydantic import Field
    from pydantic import FutureDate
    from pydantic import HttpUrl
    from pydantic import Json
    from pydantic import JsonValue
    from pydantic import NonNegativeFloat
    from pydantic import NonNegativeInt
    from pydantic import PastDate
    from pydantic import PositiveInt
    from pydantic import RootModel
    from pydantic import SecretStr
    from pydantic import StringConstraints
    from pydantic import Tag
    from pydantic import TypeAdapter
    from pydantic import conint
    from pydantic import conlist
    from pydantic import constr
    from pydantic import dataclasses as pydantic_dataclasses
    from pydantic.alias_generators import to_camel
    from typing_extensions import TypeAliasType
    from typing_extensions import TypedDict

    out: list[Entry] = []

    def add(name: str, target: Any) -> None:
        if isinstance(target, type) and issubclass(target, BaseModel):
            schema = target.model_json_schema()
        else:
            schema = TypeAdapter(target).json_schema()
        out.append(_entry("pydantic", name, schema))

    # Enums and Literal
    class Units(enum.StrEnum):
        metric = "metric"
        imperial = "imperial"
        standard = "standard"

    class WeatherRequest(BaseModel):
        """Current weather and forecast for a city."""

        city: str = Field(description="City name, e.g. 'Paris'", min_length=1, max_length=100)
        country_code: str | None = Field(
            None, pattern=r"^[A-Z]{2}$", description="ISO 3166-1 alpha-2"
        )
        units: Units = Units.metric
        days: int = Field(3, ge=1, le=14)
        include_hourly: bool = False

    add("WeatherRequest", WeatherRequest)

    class Formality(enum.StrEnum):
        formal = "formal"
        informal = "informal"
        default = "default"

    LanguageTag = Annotated[str, StringConstraints(pattern=r"^[a-z]{2,3}(-[A-Z]{2})?$")]

    class TranslationRequest(BaseModel):
        text: str = Field(min_length=1, max_length=5000, description="Text to translate")
        source_language: LanguageTag | None = Field(None, description="Detected when omitted")
        target_language: LanguageTag = Field(examples=["de", "pt-BR"])
        formality: Formality = Formality.default
        glossary: dict[str, str] = Field(default_factory=dict)
        preserve_formatting: bool = True

    add("TranslationRequest", TranslationRequest)

    class SummarizeRequest(BaseModel):
        text: str = Field(min_length=1)
        max_words: int = Field(150, gt=10, le=1000)
        style: Literal["bullets", "paragraph", "headline"] = "paragraph"
        language: Literal["en"] = "en"

    add("SummarizeRequest", SummarizeRequest)

    class Priority(enum.IntEnum):
        LOW = 1
        MEDIUM = 2
        HIGH = 3
        URGENT = 4

    class SupportTicket(BaseModel):
        title: str = Field(max_length=200)
        body: str
        priority: Priority = Priority.MEDIUM
        tags: set[str] = Field(default_factory=set)
        assignee: str | None = None
        due: dt.date | None = None

    add("SupportTicket", SupportTicket)

    class Weekday(enum.StrEnum):
        MON = "mon"
        TUE = "tue"
        WED = "wed"
        THU = "thu"
        FRI = "fri"
        SAT = "sat"
        SUN = "sun"

    class OpeningHours(BaseModel):
        days: list[Weekday] = Field(min_length=1)
        opens: dt.time
        closes: dt.time
        hours_by_day: dict[Weekday, float] = Field(default_factory=dict)

    add("OpeningHours", OpeningHours)

    class HttpStatus(enum.IntEnum):
        OK = 200
        CREATED = 201
        NOT_FOUND = 404
        SERVER_ERROR = 500

    class MockResponse(BaseModel):
        status: HttpStatus
        retry_codes: list[Literal[429, 502, 503, 504]] = [429, 503]
        body: str | None = None

    add("MockResponse", MockResponse)

    # Nested models and lists of them
    class Address(BaseModel):
        street: str
        city: str
        postal_code: str = Field(pattern=r"^[0-9A-Z -]{3,10}$")
        country: str = Field(min_length=2, max_length=2)
        region: str | None = None

    class OrderStatus(enum.StrEnum):
        pending = "pending"
        paid = "paid"
        shipped = "shipped"
        delivered = "delivered"
        cancelled = "cancelled"

    class OrderItem(BaseModel):
        sku: str = Field(pattern=r"^[A-Z]{3}-\d{4}$")
        quantity: PositiveInt
        unit_price: Decimal
        gift_wrap: bool = False

    class Order(BaseModel):
        order_id: uuid.UUID
        customer_id: int
        items: conlist(OrderItem, min_length=1, max_length=50)  # type: ignore[valid-type]
        status: OrderStatus = OrderStatus.pending
        currency: Literal["USD", "EUR", "GBP"] = "USD"
        created_at: dt.datetime
        shipping_address: Address
        billing_address: Address | None = None
        notes: str | None = Field(None, max_length=500)

    add("Order", Order)
    add("Address", Address)

    class RoomType(enum.StrEnum):
        single = "single"
        double = "double"
        suite = "suite"

    class Guest(BaseModel):
        full_name: str = Field(min_length=1)
        age: NonNegativeInt | None = None

    class HotelBooking(BaseModel):
        model_config = ConfigDict(extra="forbid")

        hotel_id: str
        check_in: dt.date
        check_out: dt.date
        rooms: conint(ge=1, le=9) = 1  # type: ignore[valid-type]
        room_type: RoomType = RoomType.double
        guests: list[Guest] = Field(min_length=1, max_length=8)
        special_requests: str | None = None
        breakfast: bool = False

    add("HotelBooking", HotelBooking)

    class CabinClass(enum.StrEnum):
        economy = "economy"
        premium_economy = "premium_economy"
        business = "business"
        first = "first"

    class PassengerCounts(BaseModel):
        adults: int = Field(1, ge=1, le=9)
        children: int = Field(0, ge=0, le=8)
        infants: int = Field(0, ge=0, le=4)

    class FlightSearch(BaseModel):
        origin: constr(pattern=r"^[A-Z]{3}$")  # type: ignore[valid-type]
        destination: constr(pattern=r"^[A-Z]{3}$")  # type: ignore[valid-type]
        departure_date: FutureDate
        return_date: dt.date | None = None
        passengers: PassengerCounts = Field(default_factory=PassengerCounts)  # type: ignore[arg-type]
        cabin: CabinClass = CabinClass.economy
        max_stops: Literal[0, 1, 2] | None = None
        flexible_days: int = Field(0, ge=0, le=3)

    add("FlightSearch", FlightSearch)

    class RestaurantReservation(BaseModel):
        restaurant: str
        party_size: int = Field(ge=1, le=20)
        at: AwareDatetime
        seating: Literal["indoor", "outdoor", "bar"] | None = None
        contact_phone: str = Field(pattern=r"^\+?[1-9]\d{6,14}$")
        dietary: list[
            Literal["vegan", "vegetarian", "gluten_free", "halal", "kosher", "nut_allergy"]
        ] = []

    add("RestaurantReservation", RestaurantReservation)

    class Department(BaseModel):
        name: str
        cost_center: int = Field(ge=1000, le=9999)

    class Employee(BaseModel):
        employee_id: int
        name: str
        email: str = Field(pattern=r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
        department: Department
        manager_id: int | None = None
        home_address: Address
        skills: list[str] = []

    class Company(BaseModel):
        name: str
        founded: PastDate
        headquarters: Address
        departments: list[Department]
        employees: list[Employee] = []

    add("Company", Company)

    # Recursive models
    class TreeNode(BaseModel):
        value: int
        children: list["TreeNode"] = []

    add("TreeNode", TreeNode)

    class LinkedListNode(BaseModel):
        value: str
        next: "LinkedListNode | None" = None

    add("LinkedListNode", LinkedListNode)

    class Comment(BaseModel):
        id: int
        author: str
        text: str = Field(max_length=2000)
        replies: list["Comment"] = []
        posted_at: dt.datetime

    class Thread(BaseModel):
        title: str
        comments: list[Comment]

    add("Thread", Thread)

    class File(BaseModel):
        kind: Literal["file"] = "file"
        name: str
        size_bytes: NonNegativeInt

    class Folder(BaseModel):
        kind: Literal["folder"] = "folder"
        name: str
        entries: list[Annotated["File | Folder", Field(discriminator="kind")]] = []

    Folder.model_rebuild()
    add("Folder", Folder)

    class Category(BaseModel):
        name: str
        parent: "Category | None" = None
        subcategories: dict[str, "Category"] = {}

    add("Category", Category)

    Scalar = TypeAliasType("Scalar", "str | int | float | bool | None")
    Nested = TypeAliasType("Nested", "Scalar | list[Nested] | dict[str, Nested]")  # type: ignore[misc]

    class Setting(BaseModel):
        key: str
        value: JsonValue = Field(description="Any JSON value")
        override: Nested | None = None

    add("Setting", Setting)

    # Discriminated unions
    class Cat(BaseModel):
        pet_type: Literal["cat"]
        meows: int
        indoor: bool = True

    class Dog(BaseModel):
        pet_type: Literal["dog"]
        barks: float
        breed: str | None = None

    class Lizard(BaseModel):
        pet_type: Literal["reptile", "lizard"]
        scales: bool

    class PetOwner(BaseModel):
        name: str
        pet: Cat | Dog | Lizard = Field(discriminator="pet_type")

    add("PetOwner", PetOwner)

    class Circle(BaseModel):
        kind: Literal["circle"] = "circle"
        radius: float = Field(gt=0)

    class Rectangle(BaseModel):
        kind: Literal["rectangle"] = "rectangle"
        width: float = Field(gt=0)
        height: float = Field(gt=0)

    class Polygon(BaseModel):
        kind: Literal["polygon"] = "polygon"
        points: list[tuple[float, float]] = Field(min_length=3)

    Shape = Annotated[Circle | Rectangle | Polygon, Field(discriminator="kind")]

    class Drawing(BaseModel):
        title: str
        shapes: list[Shape]
        background: Shape | None = None

    add("Drawing", Drawing)
    add("Shape", Shape)

    class CardPayment(BaseModel):
        method: Literal["card"]
        card_token: str = Field(min_length=16)
        save_card: bool = False

    class BankTransfer(BaseModel):
        method: Literal["bank_transfer"]
        iban: str = Field(pattern=r"^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$")
        bic: str | None = None

    class WalletPayment(BaseModel):
        method: Literal["wallet"]
        provider: Literal["apple_pay", "google_pay", "paypal"]

    class Checkout(BaseModel):
        cart_id: uuid.UUID
        payment: CardPayment | BankTransfer | WalletPayment = Field(discriminator="method")
        amount: Decimal = Field(gt=0, decimal_places=2)
        tip: NonNegativeFloat = 0.0

    add("Checkout", Checkout)

    class TextMessage(BaseModel):
        type: Literal["text"]
        text: str

    class ImageMessage(BaseModel):
        type: Literal["image"]
        url: HttpUrl
        alt_text: str | None = None

    class ToolCallMessage(BaseModel):
        type: Literal["tool_call"]
        tool_name: str
        arguments: dict[str, Any]

    class ChatTurn(BaseModel):
        role: Literal["user", "assistant", "system"]
        content: list[
            Annotated[TextMessage | ImageMessage | ToolCallMessage, Field(discriminator="type")]
        ]

    class ChatRequest(BaseModel):
        messages: list[ChatTurn] = Field(min_length=1)
        temperature: float = Field(1.0, ge=0, le=2)
        max_tokens: int | None = Field(None, gt=0, le=32768)
        stop: str | list[str] | None = None

    add("ChatRequest", ChatRequest)

    class BasicAuth(BaseModel):
        scheme: Literal["basic"]
        username: str
        password: SecretStr

    class BearerAuth(BaseModel):
        scheme: Literal["bearer"]
        token: SecretStr

    class ApiKeyAuth(BaseModel):
        scheme: Literal["api_key"]
        header: str = "X-API-Key"
        key: SecretStr

    class HttpCheck(BaseModel):
        url: AnyHttpUrl
        auth: BasicAuth | BearerAuth | ApiKeyAuth | None = Field(None, discriminator="scheme")
        expect_status: int = Field(200, ge=100, le=599)

    add("HttpCheck", HttpCheck)

    def _vehicle_kind(value: Any) -> str | None:
        if isinstance(value, dict):
            return "car" if "doors" in value else "bike"
        return "car" if hasattr(value, "doors") else "bike"

    class Car(BaseModel):
        doors: int = Field(ge=2, le=5)
        plate: str

    class Bike(BaseModel):
        gears: int = Field(1, ge=1)
        electric: bool = False

    class Rental(BaseModel):
        vehicle: Annotated[
            Annotated[Car, Tag("car")] | Annotated[Bike, Tag("bike")], Discriminator(_vehicle_kind)
        ]
        hours: int = Field(ge=1, le=72)

    add("Rental", Rental)

    class Click(BaseModel):
        event: Literal["click"]
        x: int
        y: int

    class Scroll(BaseModel):
        event: Literal["scroll"]
        delta: int

    class KeyPress(BaseModel):
        event: Literal["key"]
        key: str = Field(min_length=1, max_length=1)
        modifiers: set[Literal["shift", "ctrl", "alt", "meta"]] = set()

    UiEvent = Annotated[Click | Scroll | KeyPress, Field(discriminator="event")]

    add("UiEventBatch", list[UiEvent])

    # Plain unions
    class SearchQuery(BaseModel):
        query: str | list[str]
        filters: dict[str, str | int | bool] = {}
        limit: int | None = Field(10, ge=1, le=100)
        offset: int = Field(0, ge=0)
        sort: Literal["relevance", "date", "popularity"] = "relevance"

    add("SearchQuery", SearchQuery)

    class EmailTarget(BaseModel):
        to: list[str]
        subject: str

    class SmsTarget(BaseModel):
        phone: str
        sender_id: str | None = None

    class PushTarget(BaseModel):
        device_token: str
        badge: int | None = None

    class Notification(BaseModel):
        message: str = Field(max_length=1000)
        target: EmailTarget | SmsTarget | PushTarget
        send_at: dt.datetime | None = None

    add("Notification", Notification)

    class Measurement(BaseModel):
        sensor_id: str
        reading: int | float | str | None
        unit: str | None = None
        taken_at: dt.datetime

    add("Measurement", Measurement)

    # String constraints and formats
    class UserRegistration(BaseModel):
        username: Annotated[
            str, StringConstraints(min_length=3, max_length=32, pattern=r"^[a-zA-Z0-9_]+$")
        ]
        password: SecretStr = Field(min_length=12)
        display_name: str | None = Field(None, max_length=64)
        birthdate: PastDate | None = None
        website: AnyUrl | None = None
        accept_terms: Literal[True]

    add("UserRegistration", UserRegistration)

    class Webhook(BaseModel):
        url: HttpUrl
        secret: SecretStr | None = None
        events: list[Literal["order.created", "order.paid", "order.shipped", "refund.created"]] = (
            Field(min_length=1)
        )
        active: bool = True
        timeout_seconds: float = Field(10.0, gt=0, le=30)

    add("Webhook", Webhook)

    class Link(BaseModel):
        href: Annotated[AnyUrl, Field(max_length=2048)]
        rel: str = "related"
        media_type: str | None = Field(None, pattern=r"^[\w.+-]+/[\w.+-]+$")

    add("Link", Link)

    class CalendarEvent(BaseModel):
        event_id: uuid.UUID = Field(default_factory=uuid.uuid4)
        title: str
        starts_at: dt.datetime
        duration: dt.timedelta
        all_day: bool = False
        reminder_minutes_before: list[conint(ge=0, le=10080)] = []  # type: ignore[valid-type]
        timezone: str = "UTC"

    add("CalendarEvent", CalendarEvent)

    class AppointmentSlot(BaseModel):
        day: dt.date
        start: dt.time
        end: dt.time
        practitioner_id: uuid.UUID

    add("AppointmentSlot", AppointmentSlot)

    class ServerConfig(BaseModel):
        host: IPv4Address
        port: int = Field(8080, ge=1, le=65535)
        ipv6_host: IPv6Address | None = None
        allowed_network: IPv4Network | None = None
        tls: bool = True
        log_dir: FsPath = FsPath("/var/log/app")

    add("ServerConfig", ServerConfig)

    class RedactionRule(BaseModel):
        name: str
        pattern: re.Pattern[str]
        replacement: str = "[REDACTED]"

    add("RedactionRule", RedactionRule)

    class Attachment(BaseModel):
        filename: str = Field(pattern=r"^[^/\\]+$")
        content_type: str = "application/octet-stream"
        content: bytes
        checksum_sha256: str | None = Field(
            None, min_length=64, max_length=64, pattern=r"^[0-9a-f]+$"
        )

    add("Attachment", Attachment)

    class EncodedAttachment(BaseModel):
        filename: str
        data: Base64Bytes

    add("EncodedAttachment", EncodedAttachment)

    # Numbers
    class Invoice(BaseModel):
        invoice_number: str = Field(pattern=r"^INV-\d{6}$")
        amount: Decimal = Field(ge=0, max_digits=12, decimal_places=2)
        tax_rate: float = Field(ge=0, le=1, multiple_of=0.005)
        discount_percent: conint(ge=0, le=100, multiple_of=5) = 0  # type: ignore[valid-type]
        issued: dt.date
        due_in_days: Literal[15, 30, 45, 60] = 30

    add("Invoice", Invoice)

    class ThermostatSetting(BaseModel):
        target_celsius: float = Field(
            ge=5, le=30, multiple_of=0.5, json_schema_extra={"x-unit": "celsius"}
        )
        mode: Literal["heat", "cool", "auto", "off"] = "auto"
        fan_speed: int = Field(2, ge=0, le=5)
        schedule: dict[Weekday, list[tuple[dt.time, float]]] = {}

    add("ThermostatSetting", ThermostatSetting)

    class GeoPoint(BaseModel):
        latitude: float = Field(ge=-90, le=90)
        longitude: float = Field(ge=-180, le=180)
        altitude_m: float | None = None

    add("GeoPoint", GeoPoint)

    class RouteRequest(BaseModel):
        start: GeoPoint
        end: GeoPoint
        waypoints: list[GeoPoint] = Field(default_factory=list, max_length=25)
        mode: Literal["driving", "walking", "cycling", "transit"] = "driving"
        avoid: frozenset[Literal["tolls", "highways", "ferries"]] = frozenset()
        bbox: tuple[float, float, float, float] | None = None

    add("RouteRequest", RouteRequest)

    class LoanApplication(BaseModel):
        applicant_age: int = Field(gt=17, lt=100)
        annual_income: float = Field(gt=0)
        amount: int = Field(ge=1000, le=500000, multiple_of=500)
        term_months: Literal[12, 24, 36, 48, 60]
        credit_score: int | None = Field(None, ge=300, le=850)

    add("LoanApplication", LoanApplication)

    # Collections: tuples, sets, dicts
    class MatrixCell(BaseModel):
        position: tuple[int, int]
        label: tuple[int, str]
        values: tuple[float, ...]
        header: tuple[str, int, bool] | None = None

    add("MatrixCell", MatrixCell)

    class Inventory(BaseModel):
        warehouse: str
        stock: dict[str, int]
        prices: dict[str, Decimal] = {}
        reorder_levels: dict[str, Annotated[int, Field(ge=0)]] = {}
        locations: dict[str, list[str]] = {}

    add("Inventory", Inventory)

    class FeatureFlags(BaseModel):
        flags: dict[Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$")], bool]
        rollout_percent: dict[str, Annotated[int, Field(ge=0, le=100)]] = {}
        enabled_regions: set[str] = set()

    add("FeatureFlags", FeatureFlags)

    class Playlist(BaseModel):
        name: str
        track_ids: conlist(int, min_length=1, max_length=500)  # type: ignore[valid-type]
        collaborators: frozenset[str] = frozenset()
        tags: set[Annotated[str, StringConstraints(max_length=20)]] = set()

    add("Playlist", Playlist)

    class Survey(BaseModel):
        question: str
        choices: list[str] = Field(min_length=2, max_length=10)
        ratings: dict[str, conint(ge=1, le=5)]  # type: ignore[valid-type]
        anonymous: bool = True

    add("Survey", Survey)

    # Json, aliases, config, extras
    class WebhookDelivery(BaseModel):
        event_type: str
        payload: Json[dict[str, Any]]
        signature: str

    add("WebhookDelivery", WebhookDelivery)

    class MetricBatch(BaseModel):
        series: Json[list[tuple[int, float]]]
        labels: dict[str, str] = {}

    add("MetricBatch", MetricBatch)

    class UserProfile(BaseModel):
        model_config = ConfigDict(populate_by_name=True)

        first_name: str = Field(alias="firstName")
        last_name: str = Field(alias="lastName")
        date_of_birth: dt.date | None = Field(None, alias="dateOfBirth")
        phone_number: str | None = Field(
            None, validation_alias=AliasChoices("phoneNumber", "phone")
        )

    add("UserProfile", UserProfile)

    class CamelCaseRequest(BaseModel):
        model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True)

        account_id: int
        start_date: dt.date
        end_date: dt.date
        include_pending_items: bool = False
        max_page_size: int = Field(50, le=200)

    add("CamelCaseRequest", CamelCaseRequest)

    class StrictSettings(BaseModel):
        model_config = ConfigDict(extra="forbid", title="Application settings")

        debug: bool = False
        log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
        workers: int = Field(4, ge=1, le=64)
        database_url: AnyUrl

    add("StrictSettings", StrictSettings)

    class LooseMetadata(BaseModel):
        model_config = ConfigDict(extra="allow")

        source: str
        version: int = 1

    add("LooseMetadata", LooseMetadata)

    class ProductCreate(BaseModel):
        model_config = ConfigDict(
            json_schema_extra={
                "examples": [
                    {"name": "Espresso cup", "price": "12.50", "category": "kitchen", "stock": 40}
                ]
            }
        )

        name: str = Field(min_length=1, max_length=120, examples=["Espresso cup"])
        description: str | None = Field(None, description="Markdown allowed", max_length=4000)
        price: Decimal = Field(gt=0)
        category: Literal["kitchen", "garden", "office", "toys"]
        stock: int = Field(0, ge=0)
        barcode: str | None = Field(
            None, pattern=r"^\d{13}$", json_schema_extra={"x-format": "ean13"}
        )

    add("ProductCreate", ProductCreate)

    class LegacyQuery(BaseModel):
        query: str
        page: int = Field(1, ge=1, deprecated=True, description="Use cursor instead")
        cursor: str | None = None

    add("LegacyQuery", LegacyQuery)

    class DocumentedSearch(BaseModel):
        """Full-text search over the knowledge base.

        Results are ranked by BM25.
        """

        q: str = Field(
            title="Query", description="Words to search for", examples=["reset password"]
        )
        top_k: int = Field(5, title="Top K", ge=1, le=50, examples=[5, 10])

    add("DocumentedSearch", DocumentedSearch)

    def _add_vendor_flag(schema: dict[str, Any]) -> None:
        schema["x-internal"] = False
        schema.setdefault("properties", {}).get("sql", {})["x-sensitive"] = True

    class QueryRequest(BaseModel):
        model_config = ConfigDict(json_schema_extra=_add_vendor_flag)

        sql: str = Field(max_length=10000)
        timeout_ms: int = Field(30000, ge=100, le=300000)
        read_only: bool = True

    add("QueryRequest", QueryRequest)

    # Generics and root models
    T = TypeVar("T")

    class Page(BaseModel, Generic[T]):
        items: list[T]
        total: NonNegativeInt
        page: PositiveInt = 1
        page_size: int = Field(20, ge=1, le=100)
        next_cursor: str | None = None

    class Product(BaseModel):
        id: int
        name: str
        price: float = Field(ge=0)
        tags: list[str] = []

    add("PageOfProduct", Page[Product])
    add("PageOfStr", Page[str])

    class ApiResponse(BaseModel, Generic[T]):
        ok: bool
        data: T | None = None
        error: str | None = None

    add("ApiResponseOfOrderItem", ApiResponse[OrderItem])
    add("ApiResponseOfListGeoPoint", ApiResponse[list[GeoPoint]])

    K = TypeVar("K")
    V = TypeVar("V")

    class KeyedBatch(BaseModel, Generic[K, V]):
        entries: dict[str, V]
        keys: list[K]

    add("KeyedBatchOfIntAddress", KeyedBatch[int, Address])

    class Tags(RootModel[list[Annotated[str, StringConstraints(min_length=1, max_length=30)]]]):
        pass

    add("Tags", Tags)

    class Coordinates(RootModel[tuple[float, float]]):
        pass

    add("Coordinates", Coordinates)

    class LabelMap(RootModel[dict[str, int]]):
        pass

    add("LabelMap", LabelMap)

    # TypeAdapters of TypedDicts, dataclasses and bare types
    class MovieTD(TypedDict, total=False):
        title: str
        year: int
        genres: list[str]

    add("MovieTypedDict", MovieTD)

    @pydantic_dataclasses.dataclass
    class Coupon:
        code: str = Field(pattern=r"^[A-Z0-9]{6,12}$")
        percent_off: int = Field(ge=1, le=90)
        expires: dt.date | None = None

    add("CouponDataclass", Coupon)
    add("OrderList", list[Order])
    add("OptionalGeoPoint", GeoPoint | None)
    add("StringToListOfInts", dict[str, list[int]])
    add("WeekdayEnum", Weekday)
    add("PriorityEnum", Priority)

    class Cell(BaseModel):
        row: int = Field(ge=0)
        column: int = Field(ge=0)
        formula: str | None = None
        value: float | str | bool | None = None

    class Sheet(BaseModel):
        name: str = Field(max_length=31)
        cells: list[Cell] = []
        frozen_rows: int = 0

    class Workbook(BaseModel):
        title: str
        sheets: list[Sheet] = Field(min_length=1)
        created_by: str | None = None
        locked: bool = False

    add("Workbook", Workbook)

    class JobSpec(BaseModel):
        image: str = Field(pattern=r"^[a-z0-9./_-]+(:[\w.-]+)?$")
        command: list[str] = []
        env: dict[str, str] = {}
        cpu: float = Field(0.5, gt=0, le=16, multiple_of=0.25)
        memory_mb: int = Field(512, ge=64, le=65536)
        restart: Literal["never", "on_failure", "always"] = "on_failure"
        retries: NonNegativeInt = 0
        schedule: str | None = Field(None, description="cron expression", examples=["*/5 * * * *"])

    add("JobSpec", JobSpec)

    class ExpenseLine(BaseModel):
        description: str
        amount: Decimal = Field(gt=0)
        category: Literal["travel", "meals", "lodging", "supplies", "other"]
        receipt_url: HttpUrl | None = None
        incurred_on: dt.date

    class ExpenseReport(BaseModel):
        employee_id: int
        period: tuple[dt.date, dt.date]
        lines: list[ExpenseLine] = Field(min_length=1)
        approver_email: str | None = None
        submitted_at: dt.datetime | None = None

    add("ExpenseReport", ExpenseReport)

    class Ingredient(BaseModel):
        name: str
        quantity: float = Field(gt=0)
        unit: Literal["g", "kg", "ml", "l", "tsp", "tbsp", "cup", "piece"]

    class Recipe(BaseModel):
        title: str
        servings: int = Field(4, ge=1, le=24)
        ingredients: list[Ingredient]
        steps: list[str] = Field(min_length=1)
        prep_minutes: int | None = Field(None, ge=0)
        cuisine: str | None = None
        vegetarian: bool = False

    add("Recipe", Recipe)

    class SentimentRequest(BaseModel):
        texts: list[Annotated[str, StringConstraints(min_length=1, max_length=1000)]] = Field(
            min_length=1, max_length=100
        )
        granularity: Literal["document", "sentence"] = "document"
        return_scores: bool = False

    add("SentimentRequest", SentimentRequest)

    class ImageGenerationRequest(BaseModel):
        prompt: str = Field(min_length=1, max_length=4000)
        negative_prompt: str | None = None
        size: Literal["256x256", "512x512", "1024x1024"] = "1024x1024"
        n: int = Field(1, ge=1, le=4)
        seed: int | None = Field(None, ge=0, le=2**32 - 1)
        guidance_scale: float = Field(7.5, ge=1, le=20)

    add("ImageGenerationRequest", ImageGenerationRequest)

    class TransferRequest(BaseModel):
        from_account: str = Field(pattern=r"^\d{8,12}$")
        to_account: str = Field(pattern=r"^\d{8,12}$")
        amount: Decimal = Field(gt=0, le=Decimal("100000"))
        reference: str | None = Field(None, max_length=35)
        execute_on: FutureDate | None = None
        idempotency_key: uuid.UUID

    add("TransferRequest", TransferRequest)

    class ParcelDimensions(BaseModel):
        length_cm: float = Field(gt=0, le=300)
        width_cm: float = Field(gt=0, le=300)
        height_cm: float = Field(gt=0, le=300)
        weight_kg: float = Field(gt=0, le=70)

    class ShippingQuote(BaseModel):
        origin: Address
        destination: Address
        parcels: list[ParcelDimensions] = Field(min_length=1, max_length=20)
        service: Literal["standard", "express", "overnight"] = "standard"
        insured_value: Decimal | None = None

    add("ShippingQuote", ShippingQuote)

    class AuditQuery(BaseModel):
        actor: str | None = None
        actions: list[Literal["create", "read", "update", "delete", "login"]] | None = None
        since: dt.datetime
        until: dt.datetime | None = None
        ip: IPv4Address | IPv6Address | None = None
        limit: int = Field(100, ge=1, le=1000)

    add("AuditQuery", AuditQuery)

    return out


# ---------------------------------------------------------------------------------------------
# fastapi

_COMPONENT_PREFIX = "#/components/schemas/"


def _component_refs(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith(_COMPONENT_PREFIX):
            yield ref[len(_COMPONENT_PREFIX) :]
        for value in node.values():
            yield from _component_refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from _component_refs(value)


def _rewrite_ref(value: Any) -> Any:
    if isinstance(value, str) and value.startswith(_COMPONENT_PREFIX):
        return "#/$defs/" + value[len(_COMPONENT_PREFIX) :]
    return value


def _rewrite_refs(node: Any) -> Any:
    """`node` with `#/components/schemas/X` made `#/$defs/X` in `$ref`s and discriminator
    mappings."""
    if isinstance(node, dict):
        rewritten: dict[str, Any] = {}
        for key, value in node.items():
            if key == "$ref":
                rewritten[key] = _rewrite_ref(value)
            elif (
                key == "discriminator"
                and isinstance(value, dict)
                and isinstance(value.get("mapping"), dict)
            ):
                rewritten[key] = {
                    **value,
                    "mapping": {k: _rewrite_ref(v) for k, v in value["mapping"].items()},
                }
            else:
                rewritten[key] = _rewrite_refs(value)
        return rewritten
    if isinstance(node, list):
        return [_rewrite_refs(value) for value in node]
    return node


def _needed_components(start: Any, components: dict[str, Any]) -> list[str]:
    seen: list[str] = []
    todo = list(_component_refs(start))
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.append(name)
            todo.extend(_component_refs(components[name]))
    return sorted(seen)


def standalone_schema(schema: dict[str, Any], components: dict[str, Any]) -> dict[str, Any]:
    """The OpenAPI schema `schema` as one JSON Schema: a bare `$ref` to a component becomes that
    component (or stays a `$ref` to `$defs` when the component refers to itself), and every
    component it needs is put under `$defs`."""
    root: dict[str, Any] = copy.deepcopy(schema)
    ref = root.get("$ref")
    if set(root) == {"$ref"} and isinstance(ref, str) and ref.startswith(_COMPONENT_PREFIX):
        name = ref[len(_COMPONENT_PREFIX) :]
        if name not in _needed_components(components[name], components):
            root = copy.deepcopy(components[name])
    needed = _needed_components(root, components)
    result: dict[str, Any] = _rewrite_refs(root)
    if needed:
        result["$defs"] = {name: _rewrite_refs(components[name]) for name in needed}
    return result


def fastapi_schemas() -> list[Entry]:
    import datetime as dt
    import uuid
    from decimal import Decimal
    from typing import Annotated
    from typing import Literal

    from fastapi import Body
    from fastapi import FastAPI
    from fastapi import File
    from fastapi import Form
    from fastapi import UploadFile
    from pydantic import BaseModel
    from pydantic import ConfigDict
    from pydantic import EmailStr
    from pydantic import Field
    from pydantic import HttpUrl

    app = FastAPI(title="WoA host", version="1.0.0")

    class Item(BaseModel):
        name: str
        description: str | None = None
        price: float
        tax: float | None = None
        tags: list[str] = []

    class User(BaseModel):
        username: str
        full_name: str | None = None
        email: EmailStr | None = None

    class UserCreate(BaseModel):
        username: str = Field(min_length=3, max_length=50, pattern=r"^[a-z0-9_-]+$")
        email: EmailStr
        password: str = Field(min_length=8)
        full_name: str | None = None
        is_active: bool = True

    class Language(enum.StrEnum):
        en = "en"
        de = "de"
        fr = "fr"
        es = "es"
        ja = "ja"

    class TranslateIn(BaseModel):
        text: str = Field(min_length=1, max_length=10000)
        source: Language | None = None
        target: Language
        formality: Literal["more", "less"] | None = None

    class SummarizeIn(BaseModel):
        text: str
        max_words: int = Field(100, ge=10, le=500)
        format: Literal["paragraph", "bullets"] = "paragraph"

    class WeatherIn(BaseModel):
        city: str
        units: Literal["metric", "imperial"] = "metric"
        days: int = Field(1, ge=1, le=10)

    class Point(BaseModel):
        lat: float = Field(ge=-90, le=90)
        lon: float = Field(ge=-180, le=180)

    class Geofence(BaseModel):
        name: str
        polygon: list[Point] = Field(min_length=3)
        notify_email: EmailStr

    class BookingStatus(enum.StrEnum):
        tentative = "tentative"
        confirmed = "confirmed"

    class Booking(BaseModel):
        room_id: int
        start: dt.datetime
        end: dt.datetime
        attendees: list[EmailStr] = []
        status: BookingStatus = BookingStatus.tentative
        recurrence: Literal["daily", "weekly", "monthly"] | None = None

    class Cat(BaseModel):
        pet_type: Literal["cat"]
        name: str
        lives_left: int = Field(9, ge=0, le=9)

    class Dog(BaseModel):
        pet_type: Literal["dog"]
        name: str
        good_boy: bool = True

    class Node(BaseModel):
        id: str
        children: list["Node"] = []

    class OrderLine(BaseModel):
        product_id: uuid.UUID
        quantity: int = Field(gt=0)

    class ShippingAddress(BaseModel):
        name: str
        line1: str
        line2: str | None = None
        city: str
        postcode: str
        country: str = Field(min_length=2, max_length=2)

    class OrderIn(BaseModel):
        lines: list[OrderLine] = Field(min_length=1)
        shipping: ShippingAddress
        coupon: str | None = None
        gift_message: str | None = Field(None, max_length=250)

    class StrictPatch(BaseModel):
        model_config = ConfigDict(extra="forbid")

        name: str | None = None
        price: Decimal | None = Field(None, gt=0)

    class WebhookIn(BaseModel):
        target_url: HttpUrl
        events: list[Literal["created", "updated", "deleted"]]
        secret: str | None = None

    class LoginForm(BaseModel):
        username: str
        password: str
        remember_me: bool = False

    class ItemOut(BaseModel):
        id: int
        name: str
        price: float
        discounted: float | None = None

    class ItemWithDefault(BaseModel):
        name: str
        discounted: float | None = None
        currency: str = "EUR"

    @app.post("/items/")
    async def create_item(item: Item) -> Item:
        return item

    @app.put("/items/{item_id}")
    async def update_item(item_id: int, item: Item, user: User) -> dict[str, Any]:
        return {}

    @app.put("/items/{item_id}/importance")
    async def update_item_importance(
        item_id: int, item: Item, user: User, importance: Annotated[int, Body(gt=0, le=10)]
    ) -> dict[str, Any]:
        return {}

    @app.post("/items/embedded")
    async def create_item_embedded(item: Annotated[Item, Body(embed=True)]) -> dict[str, Any]:
        return {}

    @app.post("/items/batch")
    async def create_items(items: list[Item]) -> list[ItemOut]:
        return []

    @app.post("/items/with-default")
    async def create_item_with_default(item: ItemWithDefault) -> ItemWithDefault:
        return item

    @app.patch("/items/{item_id}")
    async def patch_item(item_id: int, patch: StrictPatch) -> dict[str, Any]:
        return {}

    @app.post("/users/")
    async def create_user(user: UserCreate) -> User:
        return User(username=user.username)

    @app.post("/translate")
    async def translate(request: TranslateIn) -> dict[str, str]:
        return {}

    @app.post("/summarize")
    async def summarize(request: SummarizeIn) -> dict[str, str]:
        return {}

    @app.post("/weather")
    async def weather(request: WeatherIn) -> dict[str, float]:
        return {}

    @app.post("/geofences")
    async def create_geofence(fence: Geofence) -> dict[str, Any]:
        return {}

    @app.post("/bookings")
    async def create_booking(booking: Booking) -> dict[str, Any]:
        return {}

    @app.post("/pets")
    async def create_pet(
        pet: Annotated[Cat | Dog, Body(discriminator="pet_type")],
    ) -> dict[str, Any]:
        return {}

    @app.post("/pets/any")
    async def create_pet_plain_union(pet: Cat | Dog) -> dict[str, Any]:
        return {}

    @app.post("/trees")
    async def create_tree(root: Node) -> dict[str, Any]:
        return {}

    @app.post("/orders")
    async def create_order(order: OrderIn) -> dict[str, Any]:
        return {}

    @app.post("/webhooks")
    async def register_webhook(hook: WebhookIn) -> dict[str, Any]:
        return {}

    @app.post("/prices")
    async def set_prices(prices: dict[str, float]) -> dict[str, Any]:
        return {}

    @app.post("/tags")
    async def set_tags(tags: Annotated[set[str], Body()]) -> dict[str, Any]:
        return {}

    @app.post("/search")
    async def search(
        query: Annotated[str, Body(min_length=1, max_length=200)],
        limit: Annotated[int, Body(ge=1, le=100)] = 10,
        filters: Annotated[dict[str, str] | None, Body()] = None,
    ) -> dict[str, Any]:
        return {}

    @app.post("/notes")
    async def create_note(
        text: Annotated[str, Body(embed=True, max_length=1000, examples=["Buy milk"])],
    ) -> dict[str, Any]:
        return {}

    @app.post("/events/{calendar_id}")
    async def add_event(
        calendar_id: str,
        title: Annotated[str, Body()],
        starts: Annotated[dt.datetime, Body()],
        ends: Annotated[dt.datetime | None, Body()] = None,
        location: Annotated[Point | None, Body()] = None,
    ) -> dict[str, Any]:
        return {}

    @app.post("/feedback")
    async def feedback(
        rating: Annotated[int, Body(ge=1, le=5, description="Stars")],
        comment: Annotated[str | None, Body(max_length=500)] = None,
        contact: Annotated[EmailStr | None, Body()] = None,
    ) -> dict[str, Any]:
        return {}

    @app.post("/login")
    async def login(form: Annotated[LoginForm, Form()]) -> dict[str, Any]:
        return {}

    @app.post("/token")
    async def token(
        grant_type: Annotated[str, Form(pattern="^password$")],
        username: Annotated[str, Form()],
        password: Annotated[str, Form()],
        scope: Annotated[str, Form()] = "",
    ) -> dict[str, Any]:
        return {}

    @app.post("/uploads")
    async def upload(
        file: UploadFile, description: Annotated[str | None, Form()] = None
    ) -> dict[str, Any]:
        return {}

    @app.post("/uploads/many")
    async def upload_many(
        files: Annotated[list[bytes], File(description="Multiple files as bytes")],
    ) -> dict[str, Any]:
        return {}

    @app.post("/users/{user_id}/address")
    async def set_address(
        user_id: int, address: ShippingAddress, make_default: Annotated[bool, Body()] = False
    ) -> dict[str, Any]:
        return {}

    @app.post("/orders/bulk")
    async def bulk_orders(
        orders: Annotated[list[OrderIn], Body(embed=True, max_length=20)],
    ) -> dict[str, Any]:
        return {}

    openapi = app.openapi()
    components: dict[str, Any] = openapi.get("components", {}).get("schemas", {})
    out: list[Entry] = []
    for path, operations in openapi["paths"].items():
        for method, operation in operations.items():
            body = operation.get("requestBody")
            if not body:
                continue
            for media_type, content in body["content"].items():
                schema = standalone_schema(content["schema"], components)
                suffix = "" if media_type == "application/json" else f" ({media_type})"
                out.append(_entry("fastapi", f"{method.upper()} {path}{suffix}", schema))
    return out


# --------------------------------------------------------------------------------------------- mcp


def mcp_schemas() -> list[Entry]:
    import datetime as dt
    import uuid
    from typing import Annotated
    from typing import Literal

    from mcp.server.mcpserver import Context
    from mcp.server.mcpserver import MCPServer
    from pydantic import BaseModel
    from pydantic import Field
    from typing_extensions import TypedDict

    server: MCPServer[Any] = MCPServer("corpus")

    class Units(enum.StrEnum):
        celsius = "celsius"
        fahrenheit = "fahrenheit"

    class Forecast(BaseModel):
        city: str
        temperature: float
        conditions: str
        humidity_percent: int = Field(ge=0, le=100)

    class SearchHit(TypedDict):
        title: str
        url: str
        score: float

    @dataclass
    class FileStat:
        path: str
        size: int
        modified: dt.datetime
        is_dir: bool

    class Severity(enum.IntEnum):
        info = 0
        warning = 1
        error = 2

    class IssueDraft(BaseModel):
        title: str = Field(max_length=256)
        body: str = ""
        labels: list[str] = []
        assignees: list[str] = Field(default_factory=list, max_length=10)

    class Contact(BaseModel):
        name: str
        email: str | None = None
        phone: str | None = None

    class Attendee(BaseModel):
        email: str
        optional: bool = False

    class TimeRange(BaseModel):
        start: dt.datetime
        end: dt.datetime

    class CreatedEvent(BaseModel):
        event_id: str
        html_link: str

    class QueryResult(BaseModel):
        columns: list[str]
        rows: list[list[str | int | float | bool | None]]
        truncated: bool = False

    @server.tool()
    def get_weather(city: str, units: Units = Units.celsius) -> Forecast:
        """Get the current weather for a city."""
        raise NotImplementedError

    @server.tool()
    def get_forecast(
        latitude: Annotated[float, Field(ge=-90, le=90, description="Latitude in degrees")],
        longitude: Annotated[float, Field(ge=-180, le=180, description="Longitude in degrees")],
        days: Annotated[int, Field(ge=1, le=16)] = 7,
    ) -> list[Forecast]:
        """Daily forecast for a location."""
        raise NotImplementedError

    @server.tool()
    def web_search(
        query: Annotated[str, Field(description="Search terms", min_length=1)],
        max_results: int = 10,
        safe_search: Literal["off", "moderate", "strict"] = "moderate",
        site: str | None = None,
    ) -> list[SearchHit]:
        """Search the web."""
        raise NotImplementedError

    @server.tool()
    def fetch_url(url: str, max_length: int = 5000, start_index: int = 0, raw: bool = False) -> str:
        """Fetch a URL and return its content as markdown."""
        raise NotImplementedError

    @server.tool()
    def read_file(path: str, head: int | None = None, tail: int | None = None) -> str:
        """Read a text file."""
        raise NotImplementedError

    @server.tool()
    def write_file(path: str, content: str) -> None:
        """Write a text file."""

    @server.tool()
    def edit_file(
        path: str,
        edits: list[dict[str, str]],
        dry_run: Annotated[
            bool, Field(description="Preview changes using git-style diff format")
        ] = False,
    ) -> str:
        """Make line-based edits to a text file."""
        raise NotImplementedError

    @server.tool()
    def list_directory(path: str, pattern: str = "*", recursive: bool = False) -> list[FileStat]:
        """List a directory."""
        raise NotImplementedError

    @server.tool()
    def stat_file(path: str) -> FileStat:
        """File metadata."""
        raise NotImplementedError

    @server.tool()
    def move_file(source: str, destination: str, overwrite: bool = False) -> bool:
        """Move or rename a file."""
        raise NotImplementedError

    @server.tool()
    def create_issue(
        repo: Annotated[str, Field(pattern=r"^[\w.-]+/[\w.-]+$")], issue: IssueDraft
    ) -> dict[str, Any]:
        """Create a GitHub issue."""
        raise NotImplementedError

    @server.tool()
    def list_issues(
        repo: str,
        state: Literal["open", "closed", "all"] = "open",
        labels: list[str] | None = None,
        since: dt.datetime | None = None,
        per_page: Annotated[int, Field(ge=1, le=100)] = 30,
    ) -> list[dict[str, Any]]:
        """List issues of a repository."""
        raise NotImplementedError

    @server.tool()
    def run_sql(
        query: str, params: list[str | int | float | None] | None = None, read_only: bool = True
    ) -> QueryResult:
        """Run a SQL query."""
        raise NotImplementedError

    @server.tool()
    def describe_table(
        table: Annotated[str, Field(pattern=r"^[a-zA-Z_][a-zA-Z0-9_]*$")],
        schema_name: str = "public",
    ) -> str:
        """Describe a table's columns."""
        raise NotImplementedError

    @server.tool()
    def create_calendar_event(
        title: str,
        when: TimeRange,
        attendees: list[Attendee] = [],  # noqa: B006
        location: str | None = None,
        reminder_minutes: Annotated[int, Field(ge=0, le=40320)] = 10,
        visibility: Literal["default", "public", "private"] = "default",
    ) -> CreatedEvent:
        """Create a calendar event."""
        raise NotImplementedError

    @server.tool()
    def find_free_slots(
        attendees: Annotated[list[str], Field(min_length=1)],
        duration_minutes: Annotated[int, Field(multiple_of=15, ge=15, le=480)],
        window: TimeRange,
    ) -> list[TimeRange]:
        """Find slots when everyone is free."""
        raise NotImplementedError

    @server.tool()
    def send_email(
        to: Annotated[list[str], Field(min_length=1, description="Recipient addresses")],
        subject: str,
        body: str,
        cc: list[str] | None = None,
        html: bool = False,
    ) -> str:
        """Send an email."""
        raise NotImplementedError

    @server.tool()
    def add_contact(contact: Contact, groups: set[str] = set()) -> Contact:  # noqa: B006
        """Add a contact to the address book."""
        raise NotImplementedError

    @server.tool()
    def translate_text(
        text: str,
        target_language: Literal["en", "de", "fr", "es", "it", "pt", "ja", "zh"],
        source_language: str | None = None,
    ) -> str:
        """Translate text."""
        raise NotImplementedError

    @server.tool()
    def summarize(text: str, max_sentences: Annotated[int, Field(gt=0, le=20)] = 3) -> str:
        """Summarize text."""
        raise NotImplementedError

    @server.tool()
    def log_event(
        message: str, severity: Severity = Severity.info, context: dict[str, str] | None = None
    ) -> None:
        """Write to the audit log."""

    @server.tool()
    def convert_currency(
        amount: Annotated[float, Field(gt=0)], from_currency: str, to_currency: str
    ) -> float:
        """Convert between currencies at today's rate."""
        raise NotImplementedError

    @server.tool()
    def get_stock_quote(
        symbols: Annotated[list[str], Field(min_length=1, max_length=25)],
    ) -> dict[str, float]:
        """Latest prices for ticker symbols."""
        raise NotImplementedError

    @server.tool()
    def create_reminder(
        text: str, at: dt.datetime, repeat: Literal["none", "daily", "weekly"] = "none"
    ) -> uuid.UUID:
        """Set a reminder."""
        raise NotImplementedError

    @server.tool()
    def geocode(address: str, country_hint: str | None = None) -> tuple[float, float]:
        """Coordinates of an address."""
        raise NotImplementedError

    @server.tool()
    def resize_image(
        image_path: str,
        width: Annotated[int, Field(ge=1, le=8192)],
        height: Annotated[int | None, Field(ge=1, le=8192)] = None,
        format: Literal["png", "jpeg", "webp"] = "png",
        quality: Annotated[int, Field(ge=1, le=100)] = 85,
    ) -> str:
        """Resize an image."""
        raise NotImplementedError

    @server.tool()
    async def long_running_task(steps: int, ctx: Context) -> str:
        """Do something slow and report progress."""
        raise NotImplementedError

    @server.tool()
    def git_commit(
        repo_path: str, message: str, files: list[str] | None = None, amend: bool = False
    ) -> str:
        """Commit changes."""
        raise NotImplementedError

    @server.tool()
    def git_log(repo_path: str, max_count: int = 10, author: str | None = None) -> list[str]:
        """Show commit logs."""
        raise NotImplementedError

    @server.tool()
    def kubectl_scale(
        deployment: str, replicas: Annotated[int, Field(ge=0, le=100)], namespace: str = "default"
    ) -> dict[str, int]:
        """Scale a deployment."""
        raise NotImplementedError

    @server.tool()
    def create_ticket(
        title: str,
        description: str,
        priority: Literal["P0", "P1", "P2", "P3"] = "P2",
        component: str | None = None,
        due_date: dt.date | None = None,
    ) -> dict[str, Any]:
        """Open a ticket in the tracker."""
        raise NotImplementedError

    @server.tool()
    def query_logs(
        service: str,
        since_minutes: Annotated[int, Field(ge=1, le=10080)] = 60,
        level: Literal["debug", "info", "warn", "error"] | None = None,
        contains: str | None = None,
    ) -> list[dict[str, str]]:
        """Search service logs."""
        raise NotImplementedError

    @server.tool()
    def set_thermostat(
        room: str,
        target: Annotated[float, Field(ge=10, le=30, multiple_of=0.5)],
        mode: Literal["heat", "cool", "auto"] = "auto",
    ) -> bool:
        """Set a room's thermostat."""
        raise NotImplementedError

    @server.tool()
    def play_music(
        query: str, shuffle: bool = False, volume: Annotated[int, Field(ge=0, le=100)] | None = None
    ) -> str:
        """Play music matching a query."""
        raise NotImplementedError

    @server.tool()
    def book_table(
        restaurant_id: str,
        party_size: Annotated[int, Field(ge=1, le=12)],
        time: dt.datetime,
        notes: str = "",
    ) -> dict[str, str]:
        """Book a restaurant table."""
        raise NotImplementedError

    @server.tool()
    def calculate(
        expression: Annotated[str, Field(max_length=500, description="An arithmetic expression")],
    ) -> float:
        """Evaluate an arithmetic expression."""
        raise NotImplementedError

    @server.tool()
    def embed_texts(
        texts: list[str], model: str = "small", normalize: bool = True
    ) -> list[list[float]]:
        """Embed texts as vectors."""
        raise NotImplementedError

    @server.tool()
    def set_feature_flag(flag: str, enabled: bool, rollout: dict[str, int] | None = None) -> None:
        """Turn a feature flag on or off."""

    @server.tool(structured_output=False)
    def random_joke(category: Literal["programming", "dad", "pun"] | None = None) -> str:
        """Tell a joke."""
        raise NotImplementedError

    tools = asyncio.run(server.list_tools())
    out: list[Entry] = []
    outputs_seen: set[str] = set()
    for tool in tools:
        wire = tool.model_dump(mode="json", by_alias=True, exclude_none=True)
        out.append(_entry("mcp", wire["name"], wire["inputSchema"]))
        if "outputSchema" in wire:
            # Many tools return a bare str, whose output schema is the same {"result": string} but
            # for its title: keep the first of each.
            untitled = json.dumps(
                {k: v for k, v in wire["outputSchema"].items() if k != "title"}, sort_keys=True
            )
            if untitled not in outputs_seen:
                outputs_seen.add(untitled)
                out.append(_entry("mcp", wire["name"] + ".output", wire["outputSchema"]))
    return out


# ---------------------------------------------------------------------------------------------
# openai


def openai_schemas() -> list[Entry]:
    import datetime as dt
    from typing import Annotated
    from typing import Literal

    import openai
    from langchain_core.utils.function_calling import convert_to_openai_tool
    from pydantic import BaseModel
    from pydantic import ConfigDict
    from pydantic import Field

    out: list[Entry] = []

    def add(model: type[BaseModel]) -> None:
        tool = openai.pydantic_function_tool(model)
        out.append(_entry("openai", model.__name__, tool["function"].get("parameters")))

    def add_langchain(target: Any, strict: bool | None = None) -> None:
        tool = convert_to_openai_tool(target, strict=strict)
        name = tool["function"]["name"] + (".strict" if strict else "")
        out.append(_entry("openai", f"langchain.{name}", tool["function"]["parameters"]))

    class GetWeather(BaseModel):
        """Get the current weather in a location."""

        location: str = Field(description="City and country, e.g. Bogotá, Colombia")
        unit: Literal["celsius", "fahrenheit"] | None = None

    add(GetWeather)

    class Table(enum.StrEnum):
        orders = "orders"
        customers = "customers"
        products = "products"

    class Column(enum.StrEnum):
        id = "id"
        status = "status"
        expected_delivery_date = "expected_delivery_date"
        delivered_at = "delivered_at"
        shipped_at = "shipped_at"
        ordered_at = "ordered_at"
        canceled_at = "canceled_at"

    class Operator(enum.StrEnum):
        eq = "="
        gt = ">"
        lt = "<"
        le = "<="
        ge = ">="
        ne = "!="

    class OrderBy(enum.StrEnum):
        asc = "asc"
        desc = "desc"

    class DynamicValue(BaseModel):
        column_name: str

    class Condition(BaseModel):
        column: str
        operator: Operator
        value: str | int | DynamicValue

    class Query(BaseModel):
        """Query the database (the example of OpenAI's structured outputs guide)."""

        table_name: Table
        columns: list[Column]
        conditions: list[Condition]
        order_by: OrderBy

    add(Query)

    class SearchFlights(BaseModel):
        origin: str = Field(description="IATA code")
        destination: str = Field(description="IATA code")
        date: dt.date
        return_date: dt.date | None
        passengers: int = Field(description="Number of adults")
        cabin: Literal["economy", "premium", "business", "first"]

    add(SearchFlights)

    class BookHotel(BaseModel):
        hotel_id: str
        check_in: dt.date
        nights: int
        guests: list[str]
        breakfast: bool = False

    add(BookHotel)

    class Step(BaseModel):
        explanation: str
        output: str

    class MathReasoning(BaseModel):
        steps: list[Step]
        final_answer: str

    add(MathReasoning)

    class UIComponent(BaseModel):
        type: Literal["div", "button", "header", "section", "field", "form"]
        label: str
        children: list["UIComponent"]
        attributes: list["Attribute"]

    class Attribute(BaseModel):
        name: str
        value: str

    UIComponent.model_rebuild()
    add(UIComponent)

    class LinkedList(BaseModel):
        value: float
        next: "LinkedList | None"

    add(LinkedList)

    class ExtractContact(BaseModel):
        name: str
        email: str | None
        phone: str | None
        company: str | None
        title: str | None = None

    add(ExtractContact)

    class Sentiment(BaseModel):
        label: Literal["positive", "negative", "neutral", "mixed"]
        confidence: float
        aspects: list[str]

    add(Sentiment)

    class ResearchPaper(BaseModel):
        title: str
        authors: list[str]
        abstract: str
        keywords: list[str]
        year: int | None

    add(ResearchPaper)

    class ModerationResult(BaseModel):
        is_violating: bool
        category: Literal["violence", "sexual", "self_harm"] | None
        explanation: str | None

    add(ModerationResult)

    class CreateTicket(BaseModel):
        title: str
        body: str
        priority: Literal["low", "medium", "high"]
        labels: list[str] = []
        assignee: str | None = None

    add(CreateTicket)

    class LineItem(BaseModel):
        description: str
        quantity: int
        unit_price: float

    class Receipt(BaseModel):
        merchant: str
        purchased_at: dt.datetime
        items: list[LineItem]
        total: float
        currency: str
        payment_method: Literal["cash", "card", "other"] | None

    add(Receipt)

    class SetReminder(BaseModel):
        text: str
        at: dt.datetime
        repeat: Literal["never", "daily", "weekly", "monthly"]

    add(SetReminder)

    class SendMessage(BaseModel):
        model_config = ConfigDict(title="send_message")

        recipient: str
        text: str
        urgent: bool

    add(SendMessage)

    class Cat(BaseModel):
        kind: Literal["cat"]
        indoor: bool

    class Dog(BaseModel):
        kind: Literal["dog"]
        breed: str

    class RegisterPet(BaseModel):
        owner: str
        pet: Cat | Dog

    add(RegisterPet)

    class Classify(BaseModel):
        labels: list[Literal["bug", "feature", "question", "docs"]]
        duplicate_of: int | None
        reasoning: str

    add(Classify)

    class Entity(BaseModel):
        text: str
        type: Literal["PERSON", "ORG", "LOCATION", "DATE", "MONEY"]
        start: int
        end: int

    class ExtractEntities(BaseModel):
        entities: list[Entity]

    add(ExtractEntities)

    class PlanTrip(BaseModel):
        destination: str
        start: dt.date
        end: dt.date
        budget_usd: float | None
        interests: list[Literal["food", "museums", "hiking", "nightlife", "beaches"]]

    add(PlanTrip)

    class Annotated_(BaseModel):
        """A model whose fields carry descriptions through Annotated."""

        query: Annotated[str, Field(description="What to look for")]
        limit: Annotated[int, Field(description="How many results")]

    Annotated_.__name__ = "SearchDocs"
    add(Annotated_)

    class RunCode(BaseModel):
        language: Literal["python", "javascript", "bash"]
        code: str
        timeout_seconds: int | None

    add(RunCode)

    class UpdateProfile(BaseModel):
        display_name: str | None
        bio: str | None
        links: list[str] | None
        theme: Literal["light", "dark", "system"] | None

    add(UpdateProfile)

    class Tree(BaseModel):
        label: str
        children: list["Tree"]

    add(Tree)

    # langchain-core
    def multiply(a: int, b: int) -> int:
        """Multiply two integers.

        Args:
            a: The first factor.
            b: The second factor.
        """
        return a * b

    def get_current_weather(
        location: str, unit: Literal["celsius", "fahrenheit"] = "celsius"
    ) -> str:
        """Get the current weather in a given location.

        Args:
            location: The city and state, e.g. San Francisco, CA.
            unit: The temperature unit.
        """
        raise NotImplementedError

    def search_documents(query: str, top_k: int = 5, tags: list[str] | None = None) -> list[str]:
        """Search the document store.

        Args:
            query: Search terms.
            top_k: How many documents to return.
            tags: Only documents with all of these tags.
        """
        raise NotImplementedError

    def schedule_meeting(
        title: str, attendees: list[str], start: str, duration_minutes: int = 30
    ) -> str:
        """Schedule a meeting.

        Args:
            title: Meeting title.
            attendees: Email addresses.
            start: ISO 8601 start time.
            duration_minutes: Length of the meeting.
        """
        raise NotImplementedError

    add_langchain(multiply)
    add_langchain(get_current_weather)
    add_langchain(search_documents)
    add_langchain(schedule_meeting)
    add_langchain(get_current_weather, strict=True)
    add_langchain(GetWeather)
    add_langchain(Query, strict=True)
    add_langchain(BookHotel)
    return out


# --------------------------------------------------------------------------------------------- zod

ZOD_SCRIPT = r"""
const { z } = require("zod");
const { zodToJsonSchema } = require("zod-to-json-schema");
const z4 = require("zod4");

const out = [];
const add = (name, schema, options) => out.push({ name, schema: zodToJsonSchema(schema, options) });
const add4 = (name, schema) => out.push({ name: "v4." + name, schema: z4.toJSONSchema(schema) });

add("weatherRequest", z.object({
  city: z.string().min(1).max(100).describe("City name"),
  units: z.enum(["metric", "imperial"]).default("metric"),
  days: z.number().int().min(1).max(14).optional(),
}));

add("translationRequest", z.object({
  text: z.string().min(1).max(5000),
  sourceLanguage: z.string().regex(/^[a-z]{2}(-[A-Z]{2})?$/).optional(),
  targetLanguage: z.string().regex(/^[a-z]{2}(-[A-Z]{2})?$/),
  formality: z.enum(["formal", "informal"]).nullable().default(null),
}));

add("userSignup", z.object({
  email: z.string().email(),
  password: z.string().min(12).max(128),
  website: z.string().url().optional(),
  referralCode: z.string().length(8).optional(),
  acceptTerms: z.literal(true),
}).strict());

const Role = { Admin: "admin", Editor: "editor", Viewer: "viewer" };
add("inviteMember", z.object({
  email: z.string().email(),
  role: z.nativeEnum(Role),
  teamId: z.string().uuid(),
  expiresAt: z.string().datetime().optional(),
}));

const Level = { Debug: 0, Info: 1, Warn: 2, Error: 3 };
add("logFilter", z.object({
  minLevel: z.nativeEnum(Level),
  service: z.string().optional(),
  since: z.string().datetime({ offset: true }),
}));

add("hotelBooking", z.object({
  hotelId: z.string(),
  checkIn: z.string().date(),
  checkOut: z.string().date(),
  rooms: z.number().int().positive().max(9).default(1),
  guests: z.array(z.object({
    name: z.string().min(1), age: z.number().int().nonnegative().optional(),
  })).nonempty().max(8),
  roomType: z.enum(["single", "double", "suite"]),
  specialRequests: z.string().max(500).nullable().optional(),
}));

const Address = z.object({
  street: z.string(),
  city: z.string(),
  postalCode: z.string().regex(/^[0-9A-Z -]{3,10}$/),
  country: z.string().length(2),
});
add("order", z.object({
  orderId: z.string().uuid(),
  items: z.array(z.object({
    sku: z.string().regex(/^[A-Z]{3}-\d{4}$/),
    quantity: z.number().int().min(1),
    unitPrice: z.number().positive().multipleOf(0.01),
  })).min(1).max(50),
  shipping: Address,
  billing: Address.optional(),
  status: z.enum(["pending", "paid", "shipped"]).default("pending"),
  createdAt: z.date(),
}));

add("payment", z.discriminatedUnion("method", [
  z.object({
    method: z.literal("card"), token: z.string().min(16), saveCard: z.boolean().default(false),
  }),
  z.object({ method: z.literal("bank"), iban: z.string().regex(/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/) }),
  z.object({ method: z.literal("wallet"), provider: z.enum(["apple_pay", "google_pay"]) }),
]));

add("searchQuery", z.object({
  q: z.union([z.string(), z.array(z.string())]),
  limit: z.number().int().min(1).max(100).default(10),
  filters: z.record(z.union([z.string(), z.number(), z.boolean()])).optional(),
}));

add("notificationTarget", z.union([
  z.object({ email: z.string().email() }),
  z.object({ phone: z.string().regex(/^\+[1-9]\d{6,14}$/) }),
  z.object({ deviceToken: z.string() }),
]));

add("geoPoint", z.object({
  lat: z.number().gte(-90).lte(90),
  lon: z.number().gte(-180).lte(180),
}).describe("A WGS84 coordinate"));

add("boundingBox", z.tuple([z.number(), z.number(), z.number(), z.number()]));

add("keyValueArgs", z.tuple([z.string(), z.number().int()]).rest(z.boolean()));

add("inventory", z.object({
  warehouse: z.string(),
  stock: z.record(z.string(), z.number().int().nonnegative()),
  tags: z.set(z.string()).max(10),
}));

add("featureFlags", z.record(z.string().regex(/^[a-z_]+$/), z.boolean()));

const Category = z.lazy(() => z.object({
  name: z.string(),
  subcategories: z.array(Category),
}));
add("category", Category);

const TreeNode = z.lazy(() => z.object({
  value: z.number(),
  children: z.array(TreeNode).default([]),
}));
add("treeNode", TreeNode, "TreeNode");

const Json = z.lazy(() => z.union([
  z.string(), z.number(), z.boolean(), z.null(), z.array(Json), z.record(Json),
]));
add("jsonValue", z.object({ key: z.string(), value: Json }), { name: "Setting" });

add("auditQuery", z.intersection(
  z.object({
    actor: z.string().optional(), action: z.enum(["create", "update", "delete"]).optional(),
  }),
  z.object({ since: z.string().datetime(), until: z.string().datetime().optional() }),
));

add("webhook", z.object({
  url: z.string().url().startsWith("https://"),
  events: z.array(z.enum(["order.created", "order.paid"])).min(1),
  secret: z.string().min(32).optional(),
  headers: z.record(z.string()).default({}),
}).passthrough());

add("chatRequest", z.object({
  messages: z.array(z.object({
    role: z.enum(["system", "user", "assistant"]),
    content: z.string(),
  })).nonempty(),
  temperature: z.number().min(0).max(2).default(1),
  maxTokens: z.number().int().positive().nullable().optional(),
  stop: z.union([z.string(), z.array(z.string()).max(4)]).optional(),
}));

add("ipConfig", z.object({
  address: z.string().ip({ version: "v4" }),
  gateway: z.string().ip(),
  hostname: z.string().min(1).max(253),
  mac: z.string().regex(/^([0-9a-f]{2}:){5}[0-9a-f]{2}$/i),
  cidr: z.string().cidr().optional(),
}));

add("recipe", z.object({
  title: z.string().trim().min(1),
  servings: z.number().int().min(1).max(24).catch(4),
  ingredients: z.array(z.object({
    name: z.string(),
    amount: z.number().positive(),
    unit: z.enum(["g", "ml", "tsp", "tbsp", "cup", "piece"]),
  })),
  vegetarian: z.boolean().optional(),
  tags: z.array(z.string()).length(3).optional(),
}));

add("survey", z.object({
  rating: z.number().int().min(1).max(5),
  recommend: z.enum(["yes", "no", "maybe"]),
  comment: z.string().max(1000).optional(),
  contactOk: z.boolean().default(false),
  answers: z.map(z.string(), z.number()).optional(),
}));

add("priceRange", z.object({
  min: z.number().nonnegative(),
  max: z.number().positive(),
  currency: z.literal("EUR").or(z.literal("USD")),
}).refine((r) => r.min <= r.max));

add("shapes", z.array(z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("circle"), radius: z.number().positive() }),
  z.object({ kind: z.literal("rect"), w: z.number().positive(), h: z.number().positive() }),
])).min(1));

add("transfer", z.object({
  fromAccount: z.string().regex(/^\d{8,12}$/),
  toAccount: z.string().regex(/^\d{8,12}$/),
  amount: z.number().positive().max(100000).multipleOf(0.01),
  reference: z.string().max(35).nullish(),
  idempotencyKey: z.string().uuid(),
  executeOn: z.coerce.date().optional(),
}));

add("pagination", z.object({
  cursor: z.string().base64().optional(),
  pageSize: z.number().int().min(1).max(100).default(20),
  sort: z.enum(["asc", "desc"]).default("desc"),
  id: z.string().cuid().optional(),
}));

add("reaction", z.object({ messageId: z.string(), emoji: z.string().emoji() }));

const Person = z.object({ name: z.string(), email: z.string().email() });
add("meeting", z.object({
  title: z.string(),
  organizer: Person,
  attendees: z.array(Person),
  room: z.string().nullable(),
  when: z.object({ start: z.string().datetime(), end: z.string().datetime() }),
}));

add("bigintCounter", z.object({
  counter: z.bigint(), label: z.string().optional(), ratio: z.number().finite(),
}));

add("envVars", z.object({
  NODE_ENV: z.enum(["development", "production", "test"]),
  PORT: z.string().regex(/^\d+$/).default("3000"),
  DATABASE_URL: z.string().url(),
  DEBUG: z.enum(["true", "false"]).optional(),
}).strict());

add("2019-09.weatherRequest", z.object({
  city: z.string().min(1),
  units: z.enum(["metric", "imperial"]).default("metric"),
}), { target: "jsonSchema2019-09" });

add("2019-09.treeNode", TreeNode, { name: "TreeNode", target: "jsonSchema2019-09" });

add("2019-09.order", z.object({
  id: z.string().uuid(),
  lines: z.array(z.object({ sku: z.string(), qty: z.number().int().positive() })).min(1),
  shipping: Address,
  billing: Address,
}), { target: "jsonSchema2019-09" });

add4("weatherRequest", z4.object({
  city: z4.string().min(1).max(100).describe("City name"),
  units: z4.enum(["metric", "imperial"]).default("metric"),
  days: z4.number().int().min(1).max(14).optional(),
}));

add4("userSignup", z4.strictObject({
  email: z4.email(),
  password: z4.string().min(12),
  website: z4.url().optional(),
  id: z4.uuid(),
  birthday: z4.iso.date().optional(),
  createdAt: z4.iso.datetime(),
}));

add4("payment", z4.discriminatedUnion("method", [
  z4.object({ method: z4.literal("card"), token: z4.string() }),
  z4.object({
    method: z4.literal("bank"), iban: z4.string().regex(/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/),
  }),
]));

const Node4 = z4.object({
  value: z4.number(),
  get children() { return z4.array(Node4); },
});
add4("treeNode", Node4);

add4("inventory", z4.object({
  stock: z4.record(z4.string(), z4.int().nonnegative()),
  bbox: z4.tuple([z4.number(), z4.number(), z4.number(), z4.number()]).nullable(),
  tags: z4.array(z4.string()).min(1).max(10),
}));

const Addr4 = z4.object({ street: z4.string(), city: z4.string() }).meta({ id: "Address" });
add4("shipment", z4.object({
  from: Addr4, to: Addr4, weightKg: z4.number().positive().multipleOf(0.1),
}));

add4("looseMetadata", z4.looseObject({ source: z4.string(), version: z4.int().default(1) }));

add4("intersection", z4.intersection(z4.object({ a: z4.string() }), z4.object({ b: z4.number() })));

process.stdout.write(JSON.stringify(out));
"""


def zod_available() -> bool:
    directory = os.environ.get("ZOD_CORPUS_DIR")
    return bool(
        directory
        and shutil.which("node")
        and all(
            (Path(directory) / "node_modules" / package).is_dir()
            for package in ("zod", "zod-to-json-schema", "zod4")
        )
    )


def zod_schemas() -> list[Entry]:
    directory = Path(os.environ["ZOD_CORPUS_DIR"])
    with tempfile.NamedTemporaryFile("w", suffix=".cjs", dir=directory, delete=False) as script:
        script.write(ZOD_SCRIPT)
    try:
        result = subprocess.run(
            ["node", script.name],
            capture_output=True,
            text=True,
            check=True,
            cwd=directory,
            timeout=120,
        )
    finally:
        Path(script.name).unlink()
    return [_entry("zod", item["name"], item["schema"]) for item in json.loads(result.stdout)]


# ---------------------------------------------------------------------------------------------
# composition

DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"


def composition_schemas() -> list[Entry]:
    address = {
        "type": "object",
        "properties": {
            "street": {"type": "string"},
            "city": {"type": "string"},
            "postal_code": {"type": "string"},
        },
        "required": ["street", "city"],
    }
    schemas: dict[str, dict[str, Any]] = {
        "anchor-refs": {
            "$schema": DRAFT_2020_12,
            "type": "object",
            "properties": {"shipping": {"$ref": "#addr"}, "billing": {"$ref": "#addr"}},
            "required": ["shipping"],
            "$defs": {"address": {"$anchor": "addr", **address}},
        },
        "embedded-id-relative-ref": {
            "$schema": DRAFT_2020_12,
            "$id": "https://schemas.example.com/order.json",
            "type": "object",
            "properties": {
                "customer": {"$ref": "customer.json"},
                "items": {"type": "array", "items": {"$ref": "item.json"}, "minItems": 1},
            },
            "required": ["customer", "items"],
            "$defs": {
                "customer": {
                    "$id": "customer.json",
                    "type": "object",
                    "properties": {
                        "name": {"type": "string"},
                        "email": {"type": "string", "format": "email"},
                    },
                    "required": ["name", "email"],
                },
                "item": {
                    "$id": "item.json",
                    "type": "object",
                    "properties": {
                        "sku": {"type": "string", "pattern": "^[A-Z]{3}-[0-9]{4}$"},
                        "qty": {"type": "integer", "minimum": 1},
                    },
                    "required": ["sku", "qty"],
                },
            },
        },
        "if-then-else-country": {
            "$schema": DRAFT_2020_12,
            "type": "object",
            "properties": {
                "country": {"enum": ["US", "CA", "NL"]},
                "postal_code": {"type": "string"},
            },
            "required": ["country", "postal_code"],
            "if": {"properties": {"country": {"const": "US"}}},
            "then": {"properties": {"postal_code": {"pattern": "^[0-9]{5}(-[0-9]{4})?$"}}},
            "else": {
                "if": {"properties": {"country": {"const": "CA"}}},
                "then": {
                    "properties": {"postal_code": {"pattern": "^[A-Z][0-9][A-Z] [0-9][A-Z][0-9]$"}}
                },
                "else": {"properties": {"postal_code": {"pattern": "^[0-9]{4} ?[A-Z]{2}$"}}},
            },
        },
        "dependent-required-billing": {
            "$schema": DRAFT_2020_12,
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "credit_card": {"type": "string", "pattern": "^[0-9]{16}$"},
                "billing_address": {"type": "string"},
                "cvv": {"type": "string", "minLength": 3, "maxLength": 4},
            },
            "required": ["name"],
            "dependentRequired": {"credit_card": ["billing_address", "cvv"]},
        },
        "dependent-schemas-shipping": {
            "$schema": DRAFT_2020_12,
            "type": "object",
            "properties": {"delivery": {"enum": ["pickup", "ship"]}, "gift": {"type": "boolean"}},
            "required": ["delivery"],
            "dependentSchemas": {
                "gift": {
                    "properties": {"gift_message": {"type": "string", "maxLength": 200}},
                    "required": ["gift_message"],
                }
            },
        },
        "unevaluated-properties-allof": {
            "$schema": DRAFT_2020_12,
            "allOf": [
                {"$ref": "#/$defs/address"},
                {
                    "properties": {"type": {"enum": ["residential", "business"]}},
                    "required": ["type"],
                },
            ],
            "unevaluatedProperties": False,
            "$defs": {"address": address},
        },
        "unevaluated-items-tuple": {
            "$schema": DRAFT_2020_12,
            "type": "array",
            "prefixItems": [{"type": "string", "format": "date"}, {"type": "number"}],
            "allOf": [{"prefixItems": [True, True, {"enum": ["open", "closed"]}]}],
            "unevaluatedItems": False,
        },
        "contains-min-max": {
            "$schema": DRAFT_2020_12,
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "role": {"enum": ["owner", "admin", "member"]},
                    "user": {"type": "string"},
                },
                "required": ["role", "user"],
            },
            "contains": {"properties": {"role": {"const": "owner"}}},
            "minContains": 1,
            "maxContains": 2,
            "maxItems": 50,
        },
        "pattern-properties-headers": {
            "$schema": DRAFT_2020_12,
            "type": "object",
            "patternProperties": {
                "^X-[A-Za-z-]+$": {"type": "string", "maxLength": 256},
                "^Content-Length$": {"type": "integer", "minimum": 0},
            },
            "additionalProperties": False,
            "minProperties": 1,
            "maxProperties": 20,
        },
        "property-names-pattern": {
            "$schema": DRAFT_2020_12,
            "type": "object",
            "propertyNames": {"pattern": "^[a-z][a-z0-9_]{0,31}$"},
            "additionalProperties": {"type": ["string", "number", "boolean"]},
            "minProperties": 1,
        },
        "boolean-subschemas": {
            "$schema": DRAFT_2020_12,
            "type": "object",
            "properties": {"anything": True, "forbidden": False, "id": {"type": "integer"}},
            "required": ["id"],
            "additionalProperties": True,
        },
        "root-allof": {
            "$schema": DRAFT_2020_12,
            "allOf": [
                {
                    "type": "object",
                    "properties": {"id": {"type": "string", "format": "uuid"}},
                    "required": ["id"],
                },
                {
                    "type": "object",
                    "properties": {"created": {"type": "string", "format": "date-time"}},
                    "required": ["created"],
                },
                {"properties": {"tags": {"type": "array", "items": {"type": "string"}}}},
            ],
        },
        "not-reserved": {
            "$schema": DRAFT_2020_12,
            "type": "object",
            "properties": {
                "username": {
                    "type": "string",
                    "minLength": 3,
                    "not": {"enum": ["admin", "root", "system"]},
                },
                "age": {"type": "integer", "not": {"minimum": 130}},
            },
            "required": ["username"],
            "not": {"required": ["password"]},
        },
        "unique-tags": {
            "$schema": DRAFT_2020_12,
            "type": "object",
            "properties": {
                "tags": {
                    "type": "array",
                    "items": {"type": "string", "minLength": 1},
                    "uniqueItems": True,
                    "minItems": 2,
                    "maxItems": 8,
                },
                "scores": {"type": "array", "items": {"type": "integer"}, "uniqueItems": True},
            },
            "required": ["tags"],
        },
        "money-multipleof": {
            "$schema": DRAFT_2020_12,
            "type": "object",
            "properties": {
                "amount": {
                    "type": "number",
                    "multipleOf": 0.01,
                    "exclusiveMinimum": 0,
                    "maximum": 1000000,
                },
                "currency": {"type": "string", "enum": ["EUR", "USD", "JPY"]},
                "quantity": {"type": "integer", "multipleOf": 5, "minimum": 5},
            },
            "required": ["amount", "currency"],
        },
        "ref-siblings": {
            "$schema": DRAFT_2020_12,
            "type": "object",
            "properties": {
                "home": {
                    "$ref": "#/$defs/address",
                    "description": "Where the user lives",
                    "required": ["postal_code"],
                },
                "work": {"$ref": "#/$defs/address", "unevaluatedProperties": False},
            },
            "$defs": {"address": address},
        },
        "draft07-definitions": {
            "$schema": "http://json-schema.org/draft-07/schema#",
            "type": "object",
            "properties": {
                "author": {"$ref": "#/definitions/person"},
                "reviewers": {"type": "array", "items": {"$ref": "#/definitions/person"}},
                "tuple": {
                    "type": "array",
                    "items": [{"type": "string"}, {"type": "integer"}],
                    "additionalItems": False,
                },
            },
            "required": ["author"],
            "dependencies": {"reviewers": ["author"]},
            "definitions": {
                "person": {
                    "type": "object",
                    "properties": {
                        "name": {"type": "string"},
                        "email": {"type": "string", "format": "email"},
                    },
                    "required": ["name"],
                }
            },
        },
        "definitions-in-2020-12": {
            "$schema": DRAFT_2020_12,
            "type": "object",
            "properties": {"parent": {"$ref": "#/definitions/node"}},
            "definitions": {
                "node": {
                    "type": "object",
                    "properties": {
                        "id": {"type": "integer"},
                        "next": {"$ref": "#/definitions/node"},
                    },
                    "required": ["id"],
                }
            },
        },
        "formats": {
            "$schema": DRAFT_2020_12,
            "type": "object",
            "properties": {
                "created": {"type": "string", "format": "date-time"},
                "birthday": {"type": "string", "format": "date"},
                "alarm": {"type": "string", "format": "time"},
                "email": {"type": "string", "format": "email"},
                "homepage": {"type": "string", "format": "uri"},
                "id": {"type": "string", "format": "uuid"},
                "ip": {"type": "string", "format": "ipv4"},
                "ip6": {"type": "string", "format": "ipv6"},
                "host": {"type": "string", "format": "hostname"},
                "period": {"type": "string", "format": "duration"},
            },
            "required": ["created", "birthday", "alarm", "email", "homepage", "id", "ip", "host"],
        },
        "oneof-exclusive-contact": {
            "$schema": DRAFT_2020_12,
            "type": "object",
            "properties": {
                "email": {"type": "string", "format": "email"},
                "phone": {"type": "string", "pattern": "^\\+[0-9]{7,15}$"},
            },
            "oneOf": [{"required": ["email"]}, {"required": ["phone"]}],
        },
        "recursive-dynamic-tree": {
            "$schema": DRAFT_2020_12,
            "$id": "https://schemas.example.com/tree",
            "$dynamicAnchor": "node",
            "type": "object",
            "properties": {
                "data": True,
                "children": {"type": "array", "items": {"$dynamicRef": "#node"}, "maxItems": 5},
            },
        },
        "const-enum-mixed": {
            "$schema": DRAFT_2020_12,
            "type": "object",
            "properties": {
                "version": {"const": 2},
                "kind": {"enum": ["a", 1, None, True]},
                "nullable_count": {"type": ["integer", "null"], "minimum": 0},
                "label": {"type": "string", "minLength": 0, "maxLength": 0},
            },
            "required": ["version", "kind"],
        },
    }
    return [_entry("composition", name, schema) for name, schema in schemas.items()]


# ---------------------------------------------------------------------------------------------
# driver


@dataclass(frozen=True)
class Source:
    name: str
    needs: str
    available: Callable[[], bool]
    build: Callable[[], list[Entry]]


def _importable(*modules: str) -> Callable[[], bool]:
    return lambda: all(importlib.util.find_spec(module) is not None for module in modules)


SOURCES = [
    Source("pydantic", "pydantic", _importable("pydantic"), pydantic_schemas),
    Source(
        "fastapi",
        "fastapi and email-validator",
        _importable("fastapi", "email_validator"),
        fastapi_schemas,
    ),
    Source("mcp", "mcp", _importable("mcp"), mcp_schemas),
    Source(
        "openai",
        "openai and langchain-core",
        _importable("openai", "langchain_core"),
        openai_schemas,
    ),
    Source("zod", "node and ZOD_CORPUS_DIR", zod_available, zod_schemas),
    Source("composition", "nothing", lambda: True, composition_schemas),
]


def checked(entries: list[Entry]) -> list[Entry]:
    """The entries whose schema passes its dialect's metaschema, and a warning for each other."""
    from jsonschema.exceptions import SchemaError
    from jsonschema.validators import Draft202012Validator
    from jsonschema.validators import validator_for

    valid: list[Entry] = []
    names: set[str] = set()
    for entry in entries:
        if entry["name"] in names:
            raise SystemExit(f"duplicate name in {entry['source']}: {entry['name']}")
        names.add(entry["name"])
        schema = entry["schema"]
        try:
            validator_for(schema, default=Draft202012Validator).check_schema(schema)
        except SchemaError as error:
            print(f"dropped {entry['source']}/{entry['name']}: {error.message}", file=sys.stderr)
            continue
        valid.append(entry)
    return valid


def render(entries: list[Entry]) -> str:
    return json.dumps(entries, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


# The keywords whose value is a schema, an array of schemas, or an object whose values are schemas.
_SCHEMA_VALUED = {
    "additionalItems", "additionalProperties", "contains", "contentSchema", "else", "if", "items",
    "not",
    "propertyNames", "then", "unevaluatedItems", "unevaluatedProperties",
}  # fmt: skip
_SCHEMA_ARRAYS = {"allOf", "anyOf", "oneOf", "prefixItems"}
_SCHEMA_MAPS = {"$defs", "definitions", "dependentSchemas", "patternProperties", "properties"}


def subschemas(schema: Any) -> Iterator[dict[str, Any]]:
    """Every schema object in `schema`, itself included (boolean schemas have no keywords)."""
    if not isinstance(schema, dict):
        return
    yield schema
    for keyword, value in schema.items():
        if keyword in _SCHEMA_VALUED:
            for item in value if isinstance(value, list) else [value]:
                yield from subschemas(item)
        elif keyword in _SCHEMA_ARRAYS and isinstance(value, list):
            for item in value:
                yield from subschemas(item)
        elif keyword in _SCHEMA_MAPS or (keyword == "dependencies" and isinstance(value, dict)):
            for item in value.values():
                yield from subschemas(item)


def summary() -> str:
    lines: list[str] = []
    usage: Counter[str] = Counter()
    total = 0
    for source in SOURCES:
        path = CORPUS / f"{source.name}.json"
        entries = json.loads(path.read_text()) if path.exists() else []
        total += len(entries)
        lines.append(f"{source.name:12} {len(entries):4}")
        for entry in entries:
            usage.update({keyword for sub in subschemas(entry["schema"]) for keyword in sub})
    lines.append(f"{'total':12} {total:4}")
    lines.append("keyword: schemas using it")
    lines.extend(
        f"  {keyword}: {count}"
        for keyword, count in sorted(usage.items(), key=lambda kv: (-kv[1], kv[0]))
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--check", action="store_true", help="exit 1 if a file differs from what would be written"
    )
    parser.add_argument(
        "--summary",
        action="store_true",
        help="print the counts and keyword usage of the files on disk",
    )
    args = parser.parse_args(argv)
    if args.summary:
        print(summary())
        return 0
    stale: list[str] = []
    for source in SOURCES:
        path = CORPUS / f"{source.name}.json"
        if not source.available():
            print(
                f"{source.name}: needs {source.needs}, {path.relative_to(ROOT)} left as it is",
                file=sys.stderr,
            )
            continue
        text = render(checked(source.build()))
        if args.check:
            if not path.exists() or path.read_text() != text:
                stale.append(str(path.relative_to(ROOT)))
        elif not path.exists() or path.read_text() != text:
            CORPUS.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
            print(f"wrote {path.relative_to(ROOT)}", file=sys.stderr)
    if stale:
        print(
            "out of date (run python tools/build_schema_corpus.py): " + ", ".join(stale),
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
