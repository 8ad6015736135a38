"""YouTube's catalogue: fifteen channels and their videos, Shorts and live streams. The table is fixed
(ids are derived from titles and handles, like real 11-character video ids), so tasks can name videos by
id; upload times are ages relative to the phone's clock at reset, so "uploaded this week" holds on the
task's own date. Comments and captions are derived from each video id on demand, keeping the state small."""

from __future__ import annotations

import base64
import hashlib
import random
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache

# name, handle, chip (home-feed category), subscribers, about, the channel's public playlist, videos:
# (title, kind, duration "h:mm:ss" / "m:ss" ("" for a live stream), age ("3h", "2d", "3w", "4mo", "1y"), views)
Row = tuple[str, str, str, str, int]
CHANNELS: tuple[tuple[str, str, str, int, str, str, tuple[Row, ...]], ...] = (
    ("Kitchen Rhythm", "kitchenrhythm", "Cooking", 2_410_000,
     "Weeknight cooking that fits a busy schedule: new recipes every few days.", "Quick dinners", (
        ("Lemon Chicken Traybake for Busy Weeknights", "video", "9:48", "2d", 184_000),
        ("Crispy Tofu Stir-Fry", "video", "7:21", "5d", 240_000),
        ("15-Minute Garlic Butter Pasta", "video", "3:42", "9d", 1_204_000),
        ("Weeknight Beef Tacos", "video", "11:05", "12d", 410_000),
        ("Sourdough Pizza Night", "video", "8:30", "20d", 880_000),
        ("Pasta Carbonara Like a Roman", "short", "0:48", "20d", 5_200_000),
        ("Creamy Tomato Pasta in One Pan", "video", "5:10", "3w", 2_310_000),
        ("Pesto Pasta Salad", "video", "3:05", "7w", 640_000),
        ("Fresh Pasta Dough by Hand", "video", "4:25", "2mo", 1_100_000),
        ("Three Dinners from One Roast Chicken", "video", "14:30", "3mo", 3_120_000),
    )),
    ("Sunday Sourdough", "sundaysourdough", "Cooking", 860_000,
     "Bread, starters and slow weekend baking.", "Sourdough basics", (
        ("Sourdough Discard Crackers", "video", "6:40", "3d", 150_000),
        ("Scoring Patterns in 30 Seconds", "short", "0:32", "6d", 700_000),
        ("Open Crumb Sourdough: Shaping and Scoring", "video", "16:05", "11d", 920_000),
        ("Why Your Sourdough Is Flat", "video", "12:15", "24d", 610_000),
        ("Sourdough Focaccia with Rosemary", "video", "3:55", "6w", 1_500_000),
        ("My Sourdough Starter from Scratch, Day by Day", "video", "18:22", "1y", 4_800_000),
    )),
    ("Pixel Forge Gaming", "pixelforge", "Gaming", 3_900_000,
     "Speedruns, secrets and co-op nights.", "Hidden secrets", (
        ("Friday Night Co-op Stream", "live", "", "2h", 12_400),
        ("Clutch 1v4 Ace", "short", "0:29", "1d", 3_400_000),
        ("Building a Castle in Minecraft Survival, Part 4", "video", "31:08", "4d", 860_000),
        ("Top 10 Hidden Bosses in Elden Ring", "video", "16:42", "2w", 2_700_000),
        ("Stardew Valley: Perfect Farm Layout", "video", "13:20", "6w", 1_100_000),
        ("Speedrunning Celeste Chapter 9 Explained", "video", "22:10", "3mo", 1_900_000),
    )),
    ("Daily Brief News", "dailybriefnews", "News", 1_250_000,
     "The day's stories, explained in minutes.", "Explainers", (
        ("Live: Global Markets Update", "live", "", "1h", 8_300),
        ("Morning Headlines in 5 Minutes", "video", "5:02", "3h", 96_000),
        ("City Council Votes on New Bike Lanes", "video", "4:20", "1d", 54_000),
        ("How Heat Pumps Are Changing Home Energy", "video", "8:14", "2d", 210_000),
        ("Electric Cars: Is the Price Gap Closing?", "video", "10:33", "5d", 450_000),
    )),
    ("Circuit Bench", "circuitbench", "Tech", 2_050_000,
     "Gadgets, cars and electronics, tested for a month before we review them.", "Long-term tests", (
        ("USB-C Cables Explained", "short", "0:55", "2d", 1_100_000),
        ("I Drove an Electric Car for 30 Days", "video", "19:45", "3d", 1_300_000),
        ("Budget Phone Camera Shootout", "video", "14:02", "6d", 780_000),
        ("Electric Car Charging Myths Busted", "video", "9:12", "3w", 2_600_000),
        ("Building a Silent Mechanical Keyboard", "video", "12:48", "2mo", 1_700_000),
    )),
    ("Trailhead Travel", "trailheadtravel", "Travel", 1_480_000,
     "Slow travel, long hikes and road trips on a budget.", "Road trips", (
        ("Packing Light: One Bag for a Month", "short", "0:58", "3d", 640_000),
        ("Cross-Country in a Cheap Electric Car", "video", "25:30", "6d", 980_000),
        ("Lisbon on a Budget", "video", "11:10", "10d", 390_000),
        ("Hiking the Dolomites: Alta Via 1", "video", "28:40", "5w", 1_400_000),
        ("Iceland Ring Road in 10 Days", "video", "21:15", "2mo", 2_200_000),
    )),
    ("Core Strength Studio", "corestrengthstudio", "Fitness", 3_300_000,
     "Home workouts for every level, no gym needed.", "Beginner workouts", (
        ("Desk Stretch Break", "short", "0:40", "2d", 1_200_000),
        ("10-Minute Morning Yoga", "video", "10:30", "6d", 820_000),
        ("Plank Variations for Beginners", "video", "3:58", "2w", 330_000),
        ("20-Minute Full Body Workout, No Equipment", "video", "20:12", "5w", 5_600_000),
        ("45-Minute Low Impact Cardio", "video", "45:00", "3mo", 2_000_000),
    )),
    ("Orbit Explained", "orbitexplained", "Science", 4_700_000,
     "Space and physics, one question at a time.", "Space questions", (
        ("Why Is Mars Red?", "short", "0:45", "1d", 2_300_000),
        ("What If the Moon Disappeared?", "video", "12:05", "4d", 1_600_000),
        ("How Black Holes Actually Form", "video", "17:36", "3w", 3_300_000),
        ("Tides Explained in 3 Minutes", "video", "3:12", "5w", 690_000),
        ("The James Webb Telescope's Strangest Images", "video", "14:50", "2mo", 4_100_000),
    )),
    ("Fast Break Sports", "fastbreaksports", "Sports", 2_800_000,
     "Highlights, drills and breakdowns from the court.", "Shooting drills", (
        ("Inside the Finals Game 3", "video", "15:40", "1d", 1_100_000),
        ("Deep Three Pointer at the Buzzer", "short", "0:24", "2d", 6_100_000),
        ("Three Pointer Shooting Drill", "short", "0:38", "5d", 1_400_000),
        ("Best Three Pointers of the Season", "video", "8:25", "2w", 7_300_000),
        ("How to Shoot a Three Pointer: Form Breakdown", "video", "9:58", "3mo", 870_000),
    )),
    ("Paper Plane Comedy", "paperplanecomedy", "Comedy", 5_100_000,
     "Sketches about group chats, offices and families.", "Office sketches", (
        ("Me Explaining Wi-Fi to My Parents", "short", "0:35", "2d", 4_400_000),
        ("When the Group Chat Plans a Trip", "video", "6:12", "4d", 1_800_000),
        ("Every Office Meeting Ever", "video", "4:45", "3w", 3_900_000),
        ("Cooking Show but Everything Goes Wrong", "video", "7:30", "2mo", 2_500_000),
    )),
    ("Lofi Harbor", "lofiharbor", "Music", 6_200_000,
     "Calm beats for studying, working and sleeping.", "Study mixes", (
        ("lofi beats to study and relax", "live", "", "5h", 18_200),
        ("Sunrise Piano, Calm Morning Music", "video", "58:20", "9d", 740_000),
        ("Rainy Night in Tokyo, Lofi Mix", "video", "1:02:10", "2mo", 8_200_000),
        ("Coffee Shop Jazz, 2 Hours", "video", "2:00:00", "5mo", 6_400_000),
    )),
    ("Acoustic Sessions", "acousticsessions", "Music", 940_000,
     "Songs recorded live in one take, and the guitar parts behind them.", "Live in one take", (
        ("Yellow Lanterns (Live Acoustic)", "video", "4:12", "6d", 350_000),
        ("Harbor Lights, Unplugged", "video", "3:48", "3w", 900_000),
        ("Fingerstyle Guitar Lesson: Travis Picking", "video", "18:05", "6w", 610_000),
        ("Open Mic Night Highlights", "video", "23:10", "4mo", 280_000),
    )),
    ("Code With Maya", "codewithmaya", "Education", 1_720_000,
     "Programming tutorials from first steps to full projects.", "Start coding", (
        ("Learn Regex in 60 Seconds", "short", "0:59", "3d", 900_000),
        ("SQL Joins Made Simple", "video", "13:37", "4d", 230_000),
        ("Build a To-Do App with React in 30 Minutes", "video", "31:44", "2w", 560_000),
        ("Git Explained in 100 Seconds", "video", "1:40", "5w", 1_900_000),
        ("Python for Beginners: Full Course", "video", "4:12:00", "1y", 9_300_000),
    )),
    ("Green Thumb Garden", "greenthumbgarden", "Gardening", 780_000,
     "Small-space gardening, houseplants and raised beds.", "Houseplant care", (
        ("Propagate Pothos in Water", "short", "0:50", "1d", 780_000),
        ("Repotting a Monstera Without the Mess", "video", "8:40", "5d", 310_000),
        ("Growing Tomatoes in Containers", "video", "15:25", "2w", 1_200_000),
        ("Raised Bed Garden Tour", "video", "22:30", "6w", 650_000),
    )),
    ("Brushwork Academy", "brushworkacademy", "Art", 1_060_000,
     "Painting and drawing lessons for beginners.", "Beginner painting", (
        ("Speed Painting a Mountain Lake", "short", "0:57", "2d", 1_300_000),
        ("Acrylic Pour Painting Fails and Fixes", "video", "10:10", "4d", 470_000),
        ("Watercolor Sunset for Beginners", "video", "12:55", "3w", 1_500_000),
        ("Sketching Hands: Five Simple Shapes", "video", "7:45", "2mo", 820_000),
    )),
)  # fmt: skip

CHIPS = ("All", "Music", "Gaming", "News", "Live", "Cooking", "Sports", "Tech", "Travel", "Science")
CAPTION_LANGUAGES = ("Spanish", "French", "German", "Portuguese", "Japanese", "Korean", "Hindi")
AGE_HOURS = {"h": 1, "d": 24, "w": 24 * 7, "mo": 24 * 30, "y": 24 * 365}
COMMENTERS = ("@mira.k", "@dan_builds", "@lucia.r", "@theo", "@sam_watches", "@ana.p", "@jules", "@kofi.m")
COMMENT_LINES = (
    "This is exactly what I needed today, thank you!",
    "The editing on this one is so good.",
    "Watched it twice, still learned something new.",
    "Can you do a follow-up on this?",
    "Saving this for the weekend.",
    "Clear, calm and to the point. Subscribed.",
    "The part in the middle made me laugh out loud.",
    "Been waiting for this upload all week!",
)


@dataclass(frozen=True)
class Channel:
    id: str
    name: str
    handle: str
    chip: str
    subscribers: int
    about: str
    playlist: str


@dataclass(frozen=True)
class Video:
    id: str
    title: str
    channel_id: str
    kind: str  # video | short | live
    seconds: int  # 0 for a live stream
    age_hours: int  # how long before the reset clock it was uploaded (a live stream: started)
    views: int  # for a live stream: people watching now

    @property
    def likes(self) -> int:
        return self.views // (18 + int(self.id.encode()[0]) % 17)

    @property
    def captions(self) -> tuple[str, ...]:
        """English always, and a few translations picked by the id."""
        pick = random.Random(self.id)
        return ("English", *sorted(pick.sample(CAPTION_LANGUAGES, pick.randint(1, 3))))


def token(seed: str, length: int) -> str:
    """A stable id-looking token from `seed`: URL-safe base64 that starts with a letter."""
    for salt in range(100):
        raw = base64.urlsafe_b64encode(hashlib.sha256(f"{seed}#{salt}".encode()).digest()).decode()
        if raw[0].isalpha():
            return raw[:length]
    raise AssertionError("unreachable")


def _seconds(duration: str) -> int:
    total = 0
    for part in duration.split(":") if duration else ():
        total = total * 60 + int(part)
    return total


def _hours(age: str) -> int:
    unit = age.lstrip("0123456789")
    return int(age[: len(age) - len(unit)]) * AGE_HOURS[unit]


@cache
def catalogue() -> tuple[dict[str, Channel], dict[str, Video]]:
    channels: dict[str, Channel] = {}
    videos: dict[str, Video] = {}
    for name, handle, chip, subscribers, about, playlist, rows in CHANNELS:
        channel = Channel("UC" + token(handle, 22), name, handle, chip, subscribers, about, playlist)
        channels[channel.id] = channel
        for title, kind, duration, age, views in rows:
            video = Video(token(title, 11), title, channel.id, kind, _seconds(duration), _hours(age), views)
            videos[video.id] = video
    return channels, videos


def channels() -> dict[str, Channel]:
    return catalogue()[0]


def videos() -> dict[str, Video]:
    return catalogue()[1]


def video(video_id: str) -> Video | None:
    return videos().get(video_id)


def channel(channel_id: str) -> Channel | None:
    return channels().get(channel_id)


def channel_by_handle(handle: str) -> Channel | None:
    wanted = handle.lstrip("@").lower()
    return next((c for c in channels().values() if c.handle == wanted), None)


def channel_of(v: Video) -> Channel:
    return channels()[v.channel_id]


def uploads(channel_id: str, kind: str = "video") -> list[Video]:
    """A channel's uploads of one kind, newest first."""
    return sorted((v for v in videos().values() if v.channel_id == channel_id and v.kind == kind),
                  key=lambda v: v.age_hours)  # fmt: skip


def channel_playlist(channel_id: str) -> list[Video]:
    """The channel's own public playlist: its regular videos, most viewed first."""
    return sorted(uploads(channel_id), key=lambda v: -v.views)


def uploaded_at(v: Video, epoch: datetime) -> datetime:
    return epoch - timedelta(hours=v.age_hours)


def comments(v: Video) -> list[dict[str, str]]:
    """Two or three comments by other viewers, fixed for each video."""
    pick = random.Random("comments:" + v.id)
    return [
        {"author": author, "text": pick.choice(COMMENT_LINES), "age": f"{pick.randint(1, 20)}h"}
        for author in pick.sample(COMMENTERS, pick.randint(2, 3))
    ]


def description(v: Video) -> str:
    c = channel_of(v)
    return (
        f"{v.title}. {c.about} Subscribe to {c.name} for more, and tell us in the comments what to make next."
    )


# -- how the app prints numbers ------------------------------------------------------------------------


def compact(n: int) -> str:
    """YouTube's short counts: 950, 1.2K, 12K, 1.2M."""
    for size, suffix in ((1_000_000_000, "B"), (1_000_000, "M"), (1_000, "K")):
        if n >= size:
            value = n / size
            text = f"{value:.1f}" if value < 10 else f"{int(value)}"
            return text.removesuffix(".0") + suffix
    return str(n)


def duration(seconds: int) -> str:
    """'3:42', '1:02:10'"""
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def ago(hours: int) -> str:
    """'3 hours ago', '2 days ago', '3 weeks ago', '2 months ago', '1 year ago'."""
    for unit, size in (("year", 24 * 365), ("month", 24 * 30), ("week", 24 * 7), ("day", 24), ("hour", 1)):
        if hours >= size:
            n = hours // size
            return f"{n} {unit}{'s' if n > 1 else ''} ago"
    return "Just now"


def views_label(v: Video) -> str:
    return f"{compact(v.views)} watching" if v.kind == "live" else f"{compact(v.views)} views"


def meta_line(v: Video, with_channel: bool = True) -> str:
    """The line under a title: 'Kitchen Rhythm · 1.2M views · 9 days ago'."""
    parts = [channel_of(v).name] if with_channel else []
    parts.append(views_label(v))
    parts.append("LIVE" if v.kind == "live" else ago(v.age_hours))
    return " · ".join(parts)
