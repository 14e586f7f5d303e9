"""Check a requested cart against the active menu and price it.

Every bad line is reported at once, by its index, with each reason, so the agent can fix the
whole cart in one go: 422 VALIDATION_ERROR, details {"lines": {"<index>": ["reason", ...]}}.
"""

from collections import Counter
from dataclasses import dataclass
from typing import TypedDict

from apps.core.errors import DomainError, ErrorCode
from apps.menu import selectors as menu_selectors
from apps.menu.models import MenuItem, ModifierOption


class CartLineIn(TypedDict):
    """A requested line as POST /api/orders validated it (apps.orders.api.agent.OrderLineIn)."""

    menu_item_id: str
    quantity: int
    modifier_option_ids: list[str]
    notes: str


@dataclass(frozen=True)
class PricedLine:
    item: MenuItem
    quantity: int
    options: list[ModifierOption]
    notes: str

    @property
    def unit_price_cents(self) -> int:
        return self.item.price_cents + sum(option.price_cents for option in self.options)

    @property
    def total_cents(self) -> int:
        return self.unit_price_cents * self.quantity


def _item_id(raw: str) -> int | None:
    return int(raw) if raw.isdigit() and len(raw) <= 18 else None


def _check_options(item: MenuItem, option_ids: list[str]) -> tuple[list[ModifierOption], list[str]]:
    """The chosen options of `item` and what is wrong with the choice."""
    problems: list[str] = []
    by_id = {str(option.pk): option for group in item.modifier_groups.all() for option in group.options.all()}
    for option_id, times in Counter(option_ids).items():
        if times > 1:
            problems.append(f"Option {option_id} is chosen more than once.")
        if option_id not in by_id:
            problems.append(f"Option {option_id} is not an option of {item.name}.")
    chosen = [by_id[option_id] for option_id in dict.fromkeys(option_ids) if option_id in by_id]
    for group in item.modifier_groups.all():
        count = sum(1 for option in chosen if option.group_id == group.pk)
        if count == 0 and not group.required:
            continue
        if count < group.min_choices:
            problems.append(f"{group.name}: choose at least {group.min_choices}.")
        if count > group.max:
            problems.append(f"{group.name}: choose at most {group.max}.")
    return chosen, problems


def price_cart(*, business_id: int, lines: list[CartLineIn]) -> list[PricedLine]:
    """Validate request lines ({menu_item_id, quantity, modifier_option_ids, notes})."""
    wanted_ids = {item_id for line in lines if (item_id := _item_id(line["menu_item_id"])) is not None}
    items = menu_selectors.items_for_order(business_id=business_id, item_ids=wanted_ids)
    quantity_by_item: Counter[int] = Counter()
    for line in lines:
        item_id = _item_id(line["menu_item_id"])
        if item_id in items:
            quantity_by_item[item_id] += line["quantity"]

    priced: list[PricedLine] = []
    errors: dict[str, list[str]] = {}
    for index, line in enumerate(lines):
        item_id = _item_id(line["menu_item_id"])
        item = items.get(item_id) if item_id is not None else None
        if item is None:
            errors[str(index)] = [f"Menu item {line['menu_item_id']} is not on this menu."]
            continue
        problems: list[str] = []
        if not item.active:
            problems.append(f"{item.name} is not available.")
        elif item.sold_out:
            problems.append(f"{item.name} is sold out.")
        elif item.track_stock and quantity_by_item[item.pk] > item.stock:
            problems.append(f"Only {item.stock} of {item.name} left.")
        options, option_problems = _check_options(item, line["modifier_option_ids"])
        problems += option_problems
        if problems:
            errors[str(index)] = problems
            continue
        priced.append(PricedLine(item=item, quantity=line["quantity"], options=options, notes=line["notes"]))
    if errors:
        raise DomainError(ErrorCode.VALIDATION_ERROR, "Some order lines are invalid.", details={"lines": errors})
    return priced
