"""The seeded mailbox of Alex Morgan (alex.morgan@gmail.com): people and companies who write, about sixty
conversations over the last months (Primary, Promotions, Social and Updates), a few already archived,
snoozed, in Spam or Trash, two sent mails, a draft, the user's labels and the phone's files to attach.

The conversations are fixed, so a task can name them; the seed moves the minute each mail arrived, and with
it every id, as Gmail's ids grow with time. Ages are in hours before the phone's clock.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

ME = ("Alex Morgan", "alex.morgan@gmail.com")
USER_LABELS = ["Expenses", "Family", "Travel", "Work"]
CATEGORIES = ("primary", "promotions", "social", "updates")

# People the user knows (the compose suggestions), then companies that write.
CONTACTS: dict[str, tuple[str, str]] = {
    "priya": ("Priya Shah", "priya.shah@gmail.com"),
    "daniel": ("Daniel Kim", "daniel.kim@outlook.com"),
    "maria": ("Maria Lopez", "maria.lopez@acmecorp.com"),
    "sam": ("Sam Rivera", "sam.rivera@gmail.com"),
    "jordan": ("Jordan Lee", "jordan.lee@gmail.com"),
    "emma": ("Emma Wilson", "emma.wilson@acmecorp.com"),
    "chris": ("Chris Taylor", "chris.taylor@acmecorp.com"),
    "olivia": ("Olivia Chen", "olivia.chen@yahoo.com"),
    "linda": ("Linda Morgan", "linda.morgan@gmail.com"),
    "noah": ("Noah Patel", "noah.patel@acmecorp.com"),
}
COMPANIES: dict[str, tuple[str, str]] = {
    "united": ("United Airlines", "unitedairlines@united.com"),
    "airbnb": ("Airbnb", "automated@airbnb.com"),
    "uber": ("Uber Receipts", "noreply@uber.com"),
    "doordash": ("DoorDash", "no-reply@doordash.com"),
    "apple": ("Apple", "no_reply@email.apple.com"),
    "amazon": ("Amazon.com", "auto-confirm@amazon.com"),
    "starbucks": ("Starbucks", "receipts@starbucks.com"),
    "lyft": ("Lyft", "no-reply@lyftmail.com"),
    "pge": ("PG&E", "customerservice@pge.com"),
    "chase": ("Chase", "no.reply.alerts@chase.com"),
    "google": ("Google", "no-reply@accounts.google.com"),
    "github": ("GitHub", "notifications@github.com"),
    "linkedin": ("LinkedIn", "messages-noreply@linkedin.com"),
    "instagram": ("Instagram", "no-reply@mail.instagram.com"),
    "facebook": ("Facebook", "notification@facebookmail.com"),
    "strava": ("Strava", "no-reply@strava.com"),
    "nextdoor": ("Nextdoor", "reply@rs.email.nextdoor.com"),
    "target": ("Target", "target@em.target.com"),
    "nike": ("Nike", "nike@official.nike.com"),
    "spotify": ("Spotify", "no-reply@spotify.com"),
    "rei": ("REI Co-op", "rei@notices.rei.com"),
    "bestbuy": ("Best Buy", "bestbuyinfo@emailinfo.bestbuy.com"),
    "uniqlo": ("UNIQLO", "news@mail.uniqlo.com"),
    "medium": ("Medium Daily Digest", "noreply@medium.com"),
    "nyt": ("The New York Times", "nytdirect@nytimes.com"),
    "prize": ("Rewards Center", "winner@claim-prize-now.biz"),
    "crypto": ("Crypto Signals", "alerts@fast-crypto-gains.net"),
}
SENDERS = {**CONTACTS, **COMPANIES, "me": ME}

# The phone's files (Downloads and Documents) that compose can attach: name, size in bytes.
FILES: list[tuple[str, int]] = [
    ("Q2_Report.pdf", 1_248_112),
    ("Q2_Report_draft.docx", 86_540),
    ("Resume_Alex_Morgan.pdf", 214_330),
    ("Lease_Agreement_2025.pdf", 2_904_118),
    ("Budget_2025.xlsx", 48_902),
    ("IMG_20250601_143210.jpg", 3_482_004),
    ("Boarding_Pass_UA1234.pdf", 96_781),
    ("Meeting_Notes_May.docx", 31_275),
]


@dataclass(frozen=True)
class Mail:
    """One message of a conversation: who wrote it, how many hours ago, what it says."""

    sender: str  # key of SENDERS
    age: float  # hours before the clock
    body: str
    to: tuple[str, ...] = ("me",)
    cc: tuple[str, ...] = ()
    attachments: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class Conversation:
    subject: str
    category: str
    mails: tuple[Mail, ...]
    labels: tuple[str, ...] = ()
    starred: bool = False
    important: bool = False
    read: bool = True  # unread conversations say read=False
    place: str = "inbox"  # inbox | archived | spam | trash | snoozed
    flags: dict[str, Any] = field(default_factory=dict)


def one(
    sender: str, age: float, subject: str, body: str, category: str = "primary", **kw: Any
) -> Conversation:
    """A conversation of a single mail to the user."""
    mail_kw = {k: kw.pop(k) for k in ("to", "cc", "attachments") if k in kw}
    return Conversation(subject, category, (Mail(sender, age, body, **mail_kw),), **kw)


DAY = 24.0
CONVERSATIONS: tuple[Conversation, ...] = (
    # -- Primary: people ---------------------------------------------------------------------------
    one(
        "priya",
        5,
        "Design review notes",
        "Hi Alex, I put my notes from the design review in the shared doc. The onboarding flow needs one more pass "
        "before we show it to Emma. Can you look at screens 4 to 7?",
        read=False,
        important=True,
    ),
    one(
        "maria",
        9,
        "Q2 report numbers",
        "Hi Alex, could you send me the final Q2 report when it is ready? I need it for the board deck on Monday.",
        labels=("Work",),
        read=False,
        important=True,
    ),
    Conversation(
        "Team offsite planning",
        "primary",
        (
            Mail(
                "chris",
                1.6 * DAY,
                "Team, the offsite is on June 24 in Half Moon Bay. Please reply with your dietary "
                "needs by Friday.",
                to=("me", "emma", "noah"),
                cc=("maria",),
            ),
            Mail(
                "emma",
                1.4 * DAY,
                "Vegetarian for me, thanks Chris!",
                to=("chris",),
                cc=("me", "noah", "maria"),
            ),
        ),
        labels=("Work",),
        read=False,
    ),
    one(
        "linda",
        2.2 * DAY,
        "Dad's birthday dinner",
        "Hi sweetie, we are doing Dad's birthday dinner on Saturday the 14th at 6pm at our place. Can you bring "
        "dessert? Love, Mom",
        labels=("Family",),
        starred=True,
        important=True,
    ),
    one(
        "priya",
        3 * DAY,
        "Lunch next week?",
        "Are you free for lunch next Tuesday or Wednesday? There is a new ramen place near the office.",
        read=False,
    ),
    one(
        "noah",
        3.5 * DAY,
        "Code freeze moved to Friday",
        "Heads up: the release code freeze moved from Wednesday to Friday. Please merge your changes before then.",
        labels=("Work",),
    ),
    one(
        "olivia",
        4.2 * DAY,
        "Book club: June pick",
        "This month's book club pick is Tomorrow, and Tomorrow, and Tomorrow. We meet on the 27th at my place!",
    ),
    one(
        "sam",
        5 * DAY,
        "Climbing on Sunday?",
        "Thinking of going to Mission Cliffs on Sunday morning. Want to join? Jordan might come too.",
        read=False,
    ),
    Conversation(
        "Thursday dinner plans",
        "primary",
        (
            Mail(
                "me",
                6.4 * DAY,
                "Hey Daniel, want to get dinner this Thursday? I can book somewhere.",
                to=("daniel",),
            ),
            Mail(
                "daniel",
                6 * DAY,
                "Yes! Olivia is in town too, so I added her. How about Nopa at 7:30?",
                to=("me",),
                cc=("olivia",),
            ),
        ),
    ),
    one(
        "jordan",
        7 * DAY,
        "Camping trip in July",
        "I reserved a campsite at Big Sur for July 11-13. I'll send the packing list soon.",
    ),
    Conversation(
        "Conference talk",
        "primary",
        (
            Mail(
                "me",
                12.5 * DAY,
                "Priya, would you review my conference talk slides before Friday?",
                to=("priya",),
            ),
            Mail(
                "priya", 12 * DAY, "Of course. The demo section is great; I would cut slide 14.", to=("me",)
            ),
        ),
    ),
    one(
        "daniel",
        14 * DAY,
        "Photos from Tahoe",
        "Here are the photos from the Tahoe weekend. The one at Emerald Bay is my favourite.",
        attachments=(("Tahoe_Emerald_Bay.jpg", 2_874_225), ("Tahoe_Cabin.jpg", 2_311_907)),
    ),
    one(
        "emma",
        16 * DAY,
        "Onboarding metrics",
        "The new onboarding lifted week-one retention by 4 points. Full numbers are in the attached sheet.",
        labels=("Work",),
        attachments=(("Onboarding_Metrics.xlsx", 58_112),),
    ),
    one(
        "priya",
        20 * DAY,
        "Book recommendation",
        "You asked for a book about design systems: try Atomic Design by Brad Frost.",
        read=False,
    ),
    one(
        "linda",
        24 * DAY,
        "Recipe you asked for",
        "Here is Grandma's lemon cake recipe. Don't skip the zest!",
        labels=("Family",),
        attachments=(("Lemon_Cake_Recipe.pdf", 184_220),),
    ),
    one(
        "maria",
        30 * DAY,
        "Welcome to the Growth team",
        "Welcome aboard, Alex! Your first planning meeting is on Monday at 10.",
        labels=("Work",),
    ),
    # -- Updates: travel, receipts, bills, accounts ------------------------------------------------------
    one(
        "united",
        2.6 * DAY,
        "Your flight confirmation - SFO to JFK on June 18",
        "Confirmation number K7QX2M. UA 1234 departs San Francisco (SFO) on Wed, Jun 18 at 8:05 AM and arrives "
        "New York (JFK) at 4:40 PM. Your itinerary is attached.",
        "updates",
        labels=("Travel",),
        attachments=(("United_Itinerary_K7QX2M.pdf", 142_870),),
    ),
    one(
        "airbnb",
        8 * DAY,
        "Reservation confirmed - Lisbon, Jun 20 - 25",
        "Your stay at Sunny Alfama Loft with Joana is confirmed. Check-in is after 3:00 PM on Friday, June 20.",
        "updates",
    ),
    one(
        "uber",
        1.2 * DAY,
        "Your Uber receipt for Tuesday evening",
        "Thanks for riding, Alex. Total $18.42, paid with Visa ending 4417. Trip: Mission St to SoMa.",
        "updates",
    ),
    one(
        "doordash",
        4 * DAY,
        "Your DoorDash receipt from Souvla",
        "Order total $27.85. Delivered to 1450 Valencia St. Thanks for ordering!",
        "updates",
    ),
    one(
        "apple",
        9 * DAY,
        "Your receipt from Apple",
        "iCloud+ with 200 GB storage, monthly. Total $2.99. Billed to Visa ending 4417.",
        "updates",
    ),
    one(
        "amazon",
        11 * DAY,
        "Your Amazon.com order receipt #112-4471902-8830617",
        "Order total $64.17: Anker USB-C charger, Moleskine notebook. Arriving Thursday.",
        "updates",
    ),
    one(
        "starbucks",
        15 * DAY,
        "Your Starbucks receipt",
        "Oat milk latte, grande. Total $6.45. You earned 12 Stars.",
        "updates",
        labels=("Expenses",),
    ),
    one(
        "lyft",
        26 * DAY,
        "Your Lyft ride receipt",
        "Ride to SFO on May 10. Total $41.30 including tip.",
        "updates",
    ),
    one(
        "pge",
        1.8 * DAY,
        "Your PG&E energy statement is ready",
        "Your statement for May is ready. Amount due: $86.12, due on June 23.",
        "updates",
        read=False,
    ),
    one(
        "chase",
        6.5 * DAY,
        "Your credit card statement is available",
        "Your Sapphire statement is available. Minimum payment due on June 28.",
        "updates",
    ),
    one(
        "google",
        10 * DAY,
        "Security alert for alex.morgan@gmail.com",
        "A new sign-in on a Pixel 7. If this was you, you don't need to do anything.",
        "updates",
    ),
    one(
        "github",
        0.8 * DAY,
        "[acme/web] Pull request #482 merged",
        "Merged #482 'Onboarding: skip button' into main.",
        "updates",
        read=False,
    ),
    one(
        "nyt",
        2.9 * DAY,
        "The Morning: what to know today",
        "Good morning. Here is what you need to know today.",
        "updates",
    ),
    # -- Social ----------------------------------------------------------------------------------------
    one(
        "linkedin",
        0.6 * DAY,
        "You appeared in 14 searches this week",
        "See who's looking at your profile.",
        "social",
        read=False,
    ),
    one(
        "linkedin",
        3.2 * DAY,
        "Emma Wilson endorsed you for Product Strategy",
        "Emma Wilson endorsed you. Return the favour?",
        "social",
        read=False,
    ),
    one(
        "instagram",
        2.1 * DAY,
        "samrivera and 3 others shared posts",
        "See what your friends posted today.",
        "social",
        read=False,
    ),
    one(
        "facebook",
        5.5 * DAY,
        "Olivia Chen mentioned you in a comment",
        "Olivia Chen mentioned you: 'Remember this trip?'",
        "social",
    ),
    one(
        "strava", 6.8 * DAY, "Your weekly running summary", "3 runs, 21.4 km this week. Nice work!", "social"
    ),
    one(
        "nextdoor",
        9.5 * DAY,
        "Lost cat near Dolores Park",
        "A neighbour posted: grey tabby missing since Tuesday.",
        "social",
    ),
    one("linkedin", 13 * DAY, "New job: Product Lead at Stripe", "Jobs you may be interested in.", "social"),
    # -- Promotions ------------------------------------------------------------------------------------
    one(
        "target",
        0.3 * DAY,
        "Summer essentials are here",
        "Up to 30% off patio furniture and grills this week.",
        "promotions",
        read=False,
    ),
    one(
        "nike",
        1.1 * DAY,
        "Just in: the Pegasus 41",
        "Meet the newest Pegasus. Free shipping for members.",
        "promotions",
        read=False,
    ),
    one(
        "spotify",
        2.4 * DAY,
        "Your Release Radar is ready",
        "New music from artists you follow.",
        "promotions",
    ),
    one(
        "rei",
        3.8 * DAY,
        "Anniversary sale: 20% off one item",
        "Members save 20% on one full-price item.",
        "promotions",
        read=False,
    ),
    one(
        "bestbuy",
        5.2 * DAY,
        "Deals of the day: headphones",
        "Save up to $100 on noise-cancelling headphones.",
        "promotions",
    ),
    one("uniqlo", 7.5 * DAY, "AIRism is back", "Stay cool this summer with AIRism tees.", "promotions"),
    one(
        "medium",
        8.5 * DAY,
        "Design systems that scale",
        "Today's highlights from writers you follow.",
        "promotions",
    ),
    one(
        "target",
        12.6 * DAY,
        "Your Target Circle rewards",
        "You have $5 in Target Circle earnings.",
        "promotions",
    ),
    one(
        "nike",
        17 * DAY,
        "Members get early access",
        "Shop the new collection before anyone else.",
        "promotions",
    ),
    one(
        "spotify",
        22 * DAY,
        "Premium Family: 3 months free",
        "Bring the whole family to Premium.",
        "promotions",
    ),
    # -- Elsewhere: archived, snoozed, spam, trash -------------------------------------------------------
    one(
        "chris",
        40 * DAY,
        "Quarterly planning doc",
        "Here is the link to the quarterly planning doc. Comments by Friday please.",
        labels=("Work",),
        place="archived",
    ),
    one(
        "jordan",
        45 * DAY,
        "Ski trip photos",
        "Finally uploaded the Tahoe ski trip photos to the shared album.",
        place="archived",
    ),
    one(
        "amazon",
        60 * DAY,
        "Your Amazon.com order receipt #112-9001832-1183920",
        "Order total $23.99: Kindle Paperwhite cover.",
        "updates",
        place="archived",
    ),
    one(
        "olivia",
        75 * DAY,
        "Housewarming party!",
        "We finally moved in! Party on March 22, bring your appetite.",
        place="archived",
    ),
    one(
        "noah",
        90 * DAY,
        "Team lunch receipts",
        "Forwarding the team lunch receipts for your expense report.",
        labels=("Work", "Expenses"),
        place="archived",
        attachments=(("Team_Lunch_Receipt.pdf", 64_018),),
    ),
    one(
        "sam",
        2.8 * DAY,
        "Rent split for June",
        "Your share of June rent and utilities is $1,412.50. Venmo whenever.",
        place="snoozed",
        flags={"snooze_days": 3},
    ),
    one(
        "prize",
        1.3 * DAY,
        "Congratulations! You have won a $1000 gift card",
        "Click here to claim your prize before it expires.",
        place="spam",
        read=False,
    ),
    one(
        "crypto",
        4.5 * DAY,
        "This coin will 100x by Friday",
        "Act now before it is too late.",
        place="spam",
        read=False,
    ),
    one(
        "bestbuy",
        19 * DAY,
        "Last chance: open-box deals",
        "Open-box laptops from $299.",
        "promotions",
        place="trash",
    ),
)

# Conversations the user started: (to, cc, subject, body, hours ago).
SENT: tuple[tuple[tuple[str, ...], tuple[str, ...], str, str, float], ...] = (
    (
        ("maria",),
        ("emma",),
        "Budget numbers for H2",
        "Hi Maria, the H2 budget numbers are in the Budget_2025 sheet.",
        5.8 * DAY,
    ),
    (
        ("linda",),
        (),
        "Flights for Thanksgiving",
        "Hi Mom, I booked my flights: arriving Wednesday the 26th.",
        18 * DAY,
    ),
)
DRAFT = {
    "to": ["jordan.lee@gmail.com"],
    "subject": "Packing list",
    "body": "Tent, two sleeping bags, the stove",
}


def contact_list() -> list[dict[str, str]]:
    return [{"name": name, "email": email} for name, email in CONTACTS.values()]


def person(key: str) -> dict[str, str]:
    name, email = SENDERS[key]
    return {"name": name, "email": email}


class Ids:
    """Gmail-like hex ids that grow with time: the arrival time in milliseconds, then a counter."""

    def __init__(self) -> None:
        self.count = 0

    def at(self, when: datetime) -> str:
        self.count += 1
        return f"{int(when.timestamp() * 1000):011x}{self.count:05x}"


def iso(when: datetime) -> str:
    return when.isoformat(timespec="seconds")


def make_mailbox(rng: random.Random, now: datetime) -> dict[str, Any]:
    """Threads, sent mail and the draft for this seed and clock."""
    ids = Ids()
    threads = []
    for conv in CONVERSATIONS:
        threads.append(_thread(conv, rng, now, ids))
    sent = []
    for to, cc, subject, body, age in SENT:
        when = now - timedelta(hours=age, minutes=rng.randint(0, 40))
        message = _message(ids, when, "me", to, cc, body, ())
        thread = _blank_thread(message["id"], subject, "primary", [message])
        thread["archived"] = True  # a conversation only the user wrote is not in the inbox
        threads.append(thread)
        sent.append(sent_record(message, thread["id"], subject))
    threads.sort(key=lambda t: t["messages"][-1]["date"], reverse=True)
    draft_time = now - timedelta(hours=30, minutes=rng.randint(0, 40))
    draft = {"id": ids.at(draft_time), "to": DRAFT["to"], "cc": [], "bcc": [], "subject": DRAFT["subject"],
             "body": DRAFT["body"], "attachments": [], "in_reply_to": None, "thread_id": None,
             "forward_of": None, "updated": iso(draft_time)}  # fmt: skip
    return {"threads": threads, "sent": sent, "drafts": [draft]}


def _thread(conv: Conversation, rng: random.Random, now: datetime, ids: Ids) -> dict[str, Any]:
    jitter = timedelta(minutes=rng.randint(0, 40))
    messages = []
    for mail in conv.mails:
        when = now - timedelta(hours=mail.age) - jitter
        messages.append(_message(ids, when, mail.sender, mail.to, mail.cc, mail.body, mail.attachments))
    thread = _blank_thread(messages[0]["id"], conv.subject, conv.category, messages)
    thread.update(
        labels=list(conv.labels), starred=conv.starred, important=conv.important, unread=not conv.read
    )
    if conv.place in ("archived", "spam", "trash"):
        thread[conv.place] = True
    if conv.place == "snoozed":
        until = (now + timedelta(days=conv.flags["snooze_days"])).replace(hour=8, minute=0, second=0)
        thread["snoozed_until"] = iso(until)
    return thread


def _blank_thread(
    thread_id: str, subject: str, category: str, messages: list[dict[str, Any]]
) -> dict[str, Any]:
    return {
        "id": thread_id, "subject": subject, "category": category, "labels": [], "starred": False,
        "important": False, "unread": False, "snoozed_until": None, "archived": False, "trashed": False,
        "spam": False, "messages": messages,
    }  # fmt: skip


def _message(ids: Ids, when: datetime, sender: str, to: tuple[str, ...], cc: tuple[str, ...], body: str,
             attachments: tuple[tuple[str, int], ...]) -> dict[str, Any]:  # fmt: skip
    return {
        "id": ids.at(when),
        "from": person(sender),
        "to": [SENDERS[k][1] for k in to],
        "cc": [SENDERS[k][1] for k in cc],
        "bcc": [],
        "date": iso(when),
        "body": body,
        "attachments": [{"name": n, "size": s} for n, s in attachments],
    }


def sent_record(message: dict[str, Any], thread_id: str, subject: str, **links: Any) -> dict[str, Any]:
    """What the Sent list keeps of a message the user sent: exact headers, body and attachment names."""
    return {
        "id": message["id"],
        "thread_id": thread_id,
        "to": message["to"],
        "cc": message["cc"],
        "bcc": message["bcc"],
        "subject": subject,
        "body": message["body"],
        "attachments": [a["name"] for a in message["attachments"]],
        "in_reply_to": links.get("in_reply_to"),
        "forward_of": links.get("forward_of"),
        "date": message["date"],
    }


def phone_files() -> list[dict[str, Any]]:
    return [{"name": name, "size": size} for name, size in FILES]
