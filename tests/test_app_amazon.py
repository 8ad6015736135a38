"""The Amazon Shopping stand-in: seeded catalog, deep links and intents, search with filters and sort,
product variants, cart, checkout, lists, orders and deals."""

from __future__ import annotations

from functools import partial

import phone_helpers
import pytest
from phone_helpers import elements, find, front, phone_with, present, seeded_dumps, tap, type_into

from masbench.vphone.apps.amazon import AmazonApp
from masbench.vphone.apps.amazon.catalog import PAGE_SIZE, catalog, query_tokens
from masbench.vphone.apps.amazon.store import catalog_of
from masbench.vphone.intents import Intent
from masbench.vphone.phone import VirtualPhone

PKG = "com.amazon.mShop.android.shopping"
MAIN = "com.amazon.mShop.navigation.MainActivity"
ULTRABOOST = "B05HAPZ91T"  # Adidas Ultraboost Light: sizes and colours
SKILLET = "B01U2XN7QB"  # Lodge cast iron skillet: no variants
MARKERS = "B0K7RBLQFP"  # Crayola washable markers


def make_phone(seed: int = 1) -> VirtualPhone:
    return phone_with(AmazonApp(), seed=seed)


@pytest.fixture
def phone() -> VirtualPhone:
    return make_phone()


state = partial(phone_helpers.state, package=PKG)
view = partial(phone_helpers.view, package=PKG)


def search(phone: VirtualPhone, query: str) -> None:
    type_into(phone, query, resource_id="rs_search_src_text")


# -- content and determinism -------------------------------------------------------------------------


def test_same_seed_gives_the_same_screens_and_another_seed_other_prices():
    dumps = seeded_dumps(
        make_phone, (4, 4, 5), lambda phone: phone.launch(PKG), lambda phone: search(phone, "running shoes")
    )
    assert dumps[0] == dumps[1]
    assert dumps[0] != dumps[2]


def test_catalog_is_large_with_stable_asins_and_seeded_prices():
    first, second = catalog(1), catalog(2)
    assert len(first.products) >= 300
    assert len({p.asin for p in first.products}) == len(first.products)
    assert {p.asin for p in first.products} == {p.asin for p in second.products}
    assert len(first.categories) >= 8
    assert first.by_asin[ULTRABOOST].price != second.by_asin[ULTRABOOST].price
    deal = first.deals[0]
    assert deal.deal and deal.list_price and deal.discount > 0


def test_search_matches_every_word_and_plurals():
    cat = catalog(1)
    assert query_tokens("watches") == query_tokens("watch")
    found = cat.matches("mechanical watches")
    assert found and all("Mechanical" in p.title for p in found)
    assert {p.brand for p in cat.results({"query": "shoes", "brand": "Nike"})} == {"Nike"}
    assert cat.matches(ULTRABOOST.lower())[0].asin == ULTRABOOST  # an ASIN finds its product


# -- intents and deep links --------------------------------------------------------------------------


def test_launcher_opens_home_on_the_main_activity(phone):
    phone.launch(PKG)
    assert front(phone)["screen"] == "home"
    assert front(phone)["activity"] == MAIN
    assert present(phone, resource_id="rs_search_src_text")
    assert present(phone, resource_id="nav_cart")


def test_search_link_carries_brand_price_prime_and_sort(phone):
    view(phone, "https://www.amazon.com/s?k=shoes&rh=p_89%3ANike%2Cp_36%3A10000-20000&s=price-asc-rank")
    args = front(phone)["args"]
    assert (args["query"], args["brand"], args["min_price"], args["max_price"]) == ("shoes", "Nike", 100, 200)
    assert args["sort"] == "price-asc-rank"
    view(
        phone,
        "https://www.amazon.com/s?k=laptop+backpack&low-price=30&high-price=60&prime=true&s=review-rank",
    )
    args = front(phone)["args"]
    assert [args[k] for k in ("min_price", "max_price", "prime", "sort")] == [30, 60, True, "review-rank"]
    prices = [float(e.text.strip("$")) for e in elements(phone) if e.resource_id.endswith("/price")]
    assert prices and all(30 <= p <= 60 for p in prices)


@pytest.mark.parametrize(
    ("uri", "screen", "args"),
    [
        (f"https://www.amazon.com/dp/{ULTRABOOST}", "product", {"asin": ULTRABOOST}),
        (
            f"https://www.amazon.com/Adidas-Ultraboost/dp/{ULTRABOOST}/ref=sr_1_1",
            "product",
            {"asin": ULTRABOOST},
        ),
        ("https://www.amazon.com/dp/B000000000", "not_found", {"asin": "B000000000"}),
        ("https://www.amazon.com/gp/cart/view.html", "cart", {}),
        ("https://www.amazon.com/deals?dept=electronics", "deals", {"dept": "electronics"}),
        ("https://www.amazon.com/gp/css/order-history", "orders", {}),
        ("https://www.amazon.com/gp/css/homepage.html", "account", {}),
        ("https://www.amazon.com/hz/wishlist/ls", "lists", {}),
        ("https://www.amazon.com/s?i=watches", "results", {"category": "watches", "query": ""}),
        (
            "https://www.amazon.com/s?i=stripbooks&k=habits",
            "results",
            {"category": "books", "query": "habits"},
        ),
        ("com.amazon.mobile.shopping://www.amazon.com/", "home", {}),
        ("com.amazon.mobile.shopping.web://www.amazon.com/gp/cart/view.html", "cart", {}),
        ("com.amazon.mShop.android.shopping://www.amazon.com/deals", "deals", {}),
    ],
)
def test_links_open_the_page_they_name(phone, uri, screen, args):
    view(phone, uri)
    shown = front(phone)
    assert (shown["package"], shown["screen"]) == (PKG, screen)
    assert {k: shown["args"][k] for k in args} == args


def test_unverified_web_link_without_package_opens_in_chrome_but_private_scheme_in_amazon(phone):
    view(phone, "https://www.amazon.com/gp/cart/view.html", package=None)
    assert front(phone)["package"] == "com.android.chrome"
    view(phone, "com.amazon.mobile.shopping://www.amazon.com/", package=None)
    assert front(phone)["package"] == PKG


def test_explicit_component_with_data_is_the_api_route(phone):
    error = phone.start_activity(
        Intent(
            "android.intent.action.VIEW",
            data="com.amazon.mobile.shopping.web://www.amazon.com/deals",
            component=f"{PKG}/com.amazon.mShop.android.home.PublicUrlActivity",
        )
    )
    assert error is None
    assert front(phone)["screen"] == "deals"


# -- shopping flows ----------------------------------------------------------------------------------


def test_suggestions_show_while_typing_and_recent_searches_are_kept(phone):
    phone.launch(PKG)
    tap(phone, resource_id="rs_search_src_text")
    phone.input_text("coff")
    assert present(phone, resource_id="iss_search_dropdown_item_text", text="coffee maker")
    tap(phone, resource_id="iss_search_dropdown_item_text", text="coffee maker")
    assert front(phone)["args"]["query"] == "coffee maker"
    assert state(phone)["recent_searches"] == ["coffee maker"]


def test_filter_sheet_sets_brand_price_prime_rating_and_sort_in_args(phone):
    phone.launch(PKG)
    search(phone, "shoes")
    tap(phone, resource_id="filters_button")
    tap(phone, resource_id="filter_brand", text="Nike")
    tap(phone, resource_id="filter_price", text="$100 to $200")
    tap(phone, resource_id="filter_prime")
    tap(phone, resource_id="filter_rating", text="4 Stars & Up")
    tap(phone, resource_id="filter_show_results")
    tap(phone, resource_id="sort_button")
    tap(phone, text="Price: Low to High")
    args = front(phone)["args"]
    assert (args["brand"], args["min_price"], args["max_price"]) == ("Nike", 100, 200)
    assert (args["prime"], args["min_rating"], args["sort"]) == (True, 4, "price-asc-rank")
    cat = catalog_of(phone.app_states[PKG])
    expected = cat.results(args)
    assert expected and find(phone, resource_id="item_title").text == expected[0].title
    assert [p.price for p in expected] == sorted(p.price for p in expected)


def test_custom_price_fields_apply_when_the_sheet_closes(phone):
    phone.launch(PKG)
    search(phone, "laptop backpack")
    tap(phone, resource_id="filters_button")
    tap(phone, resource_id="low-price")
    phone.input_text("30")
    tap(phone, resource_id="high-price")
    phone.input_text("60")
    tap(phone, resource_id="filter_show_results")
    assert (front(phone)["args"]["min_price"], front(phone)["args"]["max_price"]) == (30, 60)


def test_product_needs_a_size_then_adds_the_chosen_variant_and_quantity(phone):
    view(phone, f"https://www.amazon.com/dp/{ULTRABOOST}")
    tap(phone, resource_id="add-to-cart-button")
    assert present(phone, resource_id="variant_error", text="Please select a Size")
    assert state(phone)["cart"] == []
    tap(phone, resource_id="variant_colour", text="White")
    tap(phone, resource_id="variant_size", text="9")
    tap(phone, resource_id="quantity")
    tap(phone, resource_id="quantity_option", text="2")
    tap(phone, resource_id="add-to-cart-button")
    assert present(phone, resource_id="added_message", text="Added to Cart")
    [line] = state(phone)["cart"]
    assert (line["asin"], line["colour"], line["size"], line["quantity"]) == (ULTRABOOST, "White", "9", 2)
    assert line["brand"] == "Adidas" and line["category"] == "shoes"
    assert find(phone, resource_id="nav_cart").content_desc == "Cart, 2 items"


def test_add_to_list_keeps_one_entry_per_product(phone):
    before = len(state(phone)["wishlist"])
    view(phone, f"https://www.amazon.com/dp/{SKILLET}")
    tap(phone, resource_id="add-to-wishlist-button")
    tap(phone, resource_id="add-to-wishlist-button")
    assert [w["asin"] for w in state(phone)["wishlist"]].count(SKILLET) == 1
    assert len(state(phone)["wishlist"]) == before + 1
    view(phone, "https://www.amazon.com/hz/wishlist/ls")
    tap(phone, resource_id="wishlist_add_to_cart", desc_contains="Lodge")
    assert [line["asin"] for line in state(phone)["cart"]] == [SKILLET]


def test_cart_quantity_delete_and_save_for_later_change_state(phone):
    phone.app_states[PKG]["cart"] = [{"asin": SKILLET}, {"asin": MARKERS, "quantity": 2}]
    phone.invalidate()
    view(phone, "https://www.amazon.com/gp/cart/view.html")
    tap(phone, resource_id="cart_qty_increase", desc_contains="Lodge")
    tap(phone, resource_id="cart_qty_decrease", desc_contains="Crayola")
    assert [(line["asin"], line["quantity"]) for line in state(phone)["cart"]] == [(SKILLET, 2), (MARKERS, 1)]
    tap(phone, resource_id="cart_save_for_later", desc_contains="Crayola")
    tap(phone, resource_id="cart_delete", desc_contains="Lodge")
    assert state(phone)["cart"] == []
    assert [line["asin"] for line in state(phone)["saved_for_later"]] == [MARKERS]
    tap(phone, resource_id="saved_move_to_cart")
    assert [line["asin"] for line in state(phone)["cart"]] == [MARKERS]


def test_checkout_places_an_order_with_the_chosen_delivery_and_empties_the_cart(phone):
    phone.app_states[PKG]["cart"] = [{"asin": SKILLET, "quantity": 2}]
    view(phone, "https://www.amazon.com/gp/cart/view.html")
    tap(phone, resource_id="proceed-to-checkout")
    tap(phone, resource_id="delivery_option", text_contains="One-Day")
    tap(phone, resource_id="place-order-button")
    assert front(phone)["screen"] == "thank_you"
    data = state(phone)
    assert data["cart"] == []
    newest = data["orders"][0]
    assert (newest["status"], newest["delivery"], newest["items"][0]["quantity"]) == ("Ordered", "one_day", 2)
    assert any(i["asin"] == SKILLET and i["status"] == "Ordered" for i in data["order_items"])


def test_buy_now_orders_only_that_item(phone):
    phone.app_states[PKG]["cart"] = [{"asin": MARKERS}]
    view(phone, f"https://www.amazon.com/dp/{SKILLET}")
    tap(phone, resource_id="buy-now-button")
    tap(phone, resource_id="place-order-button")
    data = state(phone)
    assert [i["asin"] for i in data["orders"][0]["items"]] == [SKILLET]
    assert [line["asin"] for line in data["cart"]] == [MARKERS]


def test_buy_it_again_from_order_history(phone):
    history = state(phone)["orders"]
    assert history and all(o["status"] == "Delivered" for o in history)
    view(phone, "https://www.amazon.com/gp/css/order-history")
    tap(phone, resource_id="order_card")
    tap(phone, resource_id="buy-it-again")
    assert [line["asin"] for line in state(phone)["cart"]] == [history[0]["items"][0]["asin"]]


def test_deals_filter_by_department_and_sort_by_discount(phone):
    phone.launch(PKG)
    tap(phone, resource_id="category_chip", text="Today's Deals")
    cat = catalog_of(phone.app_states[PKG])
    dept = next(p.category for p in cat.deals)
    tap(phone, resource_id="deal_dept", text=cat.categories[dept].label)
    tap(phone, resource_id="deal_sort")
    tap(phone, text="Discount: High to Low")
    assert front(phone)["args"] == {"dept": dept, "sort": "discount"}
    best = max((p for p in cat.deals if p.category == dept), key=lambda p: p.discount)
    assert find(phone, resource_id="deal_card").content_desc == best.title


def test_bottom_navigation_reaches_every_tab(phone):
    phone.launch(PKG)
    for tab, screen in (("nav_you", "you"), ("nav_cart", "cart"), ("nav_menu", "menu"), ("nav_home", "home")):
        tap(phone, resource_id=tab)
        assert front(phone)["screen"] == screen
    tap(phone, resource_id="nav_menu")
    tap(phone, resource_id="department", text="Books")
    assert front(phone)["args"]["category"] == "books"


# -- scrolling and pages -----------------------------------------------------------------------------


def test_results_scroll_and_paginate(phone):
    phone.launch(PKG)
    view(phone, "https://www.amazon.com/s?i=electronics")
    first = find(phone, resource_id="item_title").text
    listing = next(n for n in phone.frame().window.walk() if n.scroll == "results")
    for _ in range(30):
        phone.scroll_node(listing, "down")
        listing = next(n for n in phone.frame().window.walk() if n.scroll == "results")
    assert find(phone, resource_id="item_title").text != first
    tap(phone, resource_id="pager_next")
    assert front(phone)["args"]["page"] == 2
    shown = catalog_of(phone.app_states[PKG]).results(front(phone)["args"])
    assert find(phone, resource_id="item_title").text == shown[PAGE_SIZE].title


def test_state_is_small_and_pre_seeded_lines_need_only_an_asin(phone):
    phone.app_states[PKG]["cart"] = [{"asin": SKILLET}]
    data = state(phone)
    assert "catalog_seed" not in data and "products" not in data
    assert data["cart"][0]["title"].startswith("Lodge Cast Iron Skillet")
    assert data["cart_count"] == 1 and data["subtotal"] == data["cart"][0]["price"]
