"""The demo menu's photos, drawn here with Pillow (our own work, dedicated to the public domain
under CC0 1.0, like the rest of the demo data). seed_demo stores each through the same path as an
owner's upload (apps.menu.photos: re-encoded, stored, served with cache headers), so the demo
shows what an uploaded photo looks like on every screen."""

import io
import random
from collections.abc import Callable

from PIL import Image, ImageDraw, ImageFilter

WIDTH, HEIGHT, SCALE = 800, 600, 2  # drawn at twice the size, then shrunk: smooth edges

Color = tuple[int, int, int]
Draw = ImageDraw.ImageDraw


def _canvas(top: Color, bottom: Color) -> tuple[Image.Image, Draw]:
    width, height = WIDTH * SCALE, HEIGHT * SCALE
    image = Image.new("RGB", (width, height))
    draw = ImageDraw.Draw(image)
    for y in range(height):
        t = y / height
        draw.line([(0, y), (width, y)], fill=tuple(int(a + (b - a) * t) for a, b in zip(top, bottom, strict=True)))
    # A table top and a soft shadow under the plate.
    draw.rectangle([0, int(height * 0.68), width, height], fill=(120, 84, 56))
    draw.rectangle([0, int(height * 0.68), width, int(height * 0.70)], fill=(96, 66, 44))
    return image, draw


def _box(x0: float, y0: float, x1: float, y1: float) -> list[float]:
    return [x * SCALE for x in (x0, y0, x1, y1)]


def _plate(draw: Draw, cx: float = 400, cy: float = 470, rx: float = 300, ry: float = 70) -> None:
    draw.ellipse(_box(cx - rx + 12, cy - ry + 18, cx + rx + 12, cy + ry + 18), fill=(70, 48, 32))
    draw.ellipse(_box(cx - rx, cy - ry, cx + rx, cy + ry), fill=(245, 245, 240))
    draw.ellipse(_box(cx - rx * 0.72, cy - ry * 0.62, cx + rx * 0.72, cy + ry * 0.62), fill=(232, 232, 226))


def _seeds(draw: Draw, box: tuple[float, float, float, float], count: int, rng: random.Random) -> None:
    x0, y0, x1, y1 = box
    for _ in range(count):
        x, y = rng.uniform(x0, x1), rng.uniform(y0, y1)
        draw.ellipse(_box(x - 4, y - 2, x + 4, y + 2), fill=(250, 238, 200))


def _burger(
    draw: Draw, rng: random.Random, bun: Color = (214, 140, 60), patty: Color = (96, 52, 30), extra: Color | None = None
) -> None:
    _plate(draw)
    draw.chord(_box(210, 390, 590, 500), 0, 180, fill=(196, 124, 52))  # bottom bun
    draw.rounded_rectangle(_box(195, 360, 605, 420), radius=28 * SCALE, fill=patty)
    if extra:
        draw.polygon([p * SCALE for p in (200, 362, 600, 362, 560, 392, 420, 376, 300, 396)], fill=extra)
    draw.rectangle(_box(215, 340, 585, 366), fill=(220, 40, 40))  # tomato
    for x in range(190, 600, 46):  # lettuce
        draw.ellipse(_box(x, 318, x + 60, 352), fill=(92, 170, 60))
    draw.chord(_box(200, 170, 600, 420), 180, 360, fill=bun)  # top bun
    _seeds(draw, (260, 210, 540, 280), 18, rng)


def _fries(draw: Draw, rng: random.Random) -> None:
    _plate(draw)
    for _ in range(26):
        x = rng.uniform(300, 500)
        top = rng.uniform(150, 230)
        angle = rng.uniform(-14, 14)
        draw.line(_box(x, top, x + angle, 380), fill=(240, 190, 70), width=18 * SCALE)
    draw.polygon([p * SCALE for p in (280, 270, 520, 270, 490, 470, 310, 470)], fill=(200, 30, 40))
    draw.rectangle(_box(300, 330, 500, 350), fill=(250, 210, 60))


def _rings(draw: Draw, rng: random.Random) -> None:
    _plate(draw)
    for cx, cy in ((300, 400), (420, 410), (520, 395), (360, 350), (470, 345)):
        draw.ellipse(_box(cx - 70, cy - 40, cx + 70, cy + 40), fill=(214, 150, 62))
        draw.ellipse(_box(cx - 36, cy - 18, cx + 36, cy + 18), fill=(232, 232, 226))


def _glass(draw: Draw, rng: random.Random, drink: Color, fizz: bool = True, slice_color: Color | None = None) -> None:
    draw.ellipse(_box(300, 480, 500, 520), fill=(70, 48, 32))
    draw.polygon([p * SCALE for p in (300, 150, 500, 150, 480, 500, 320, 500)], fill=(225, 240, 245))
    draw.polygon([p * SCALE for p in (308, 200, 492, 200, 478, 492, 322, 492)], fill=drink)
    for _ in range(5):  # ice
        x, y = rng.uniform(330, 440), rng.uniform(210, 300)
        draw.rounded_rectangle(_box(x, y, x + 40, y + 40), radius=6 * SCALE, fill=(235, 245, 250))
    if fizz:
        for _ in range(30):
            x, y = rng.uniform(330, 470), rng.uniform(300, 480)
            draw.ellipse(_box(x, y, x + 6, y + 6), fill=tuple(min(255, c + 70) for c in drink))
    if slice_color:
        draw.pieslice(_box(440, 110, 560, 230), 90, 270, fill=slice_color)
    draw.line(_box(420, 60, 380, 400), fill=(230, 60, 60), width=10 * SCALE)  # straw


def _bowl(draw: Draw, rng: random.Random, broth: Color, toppings: tuple[Callable[[Draw], None], ...]) -> None:
    draw.ellipse(_box(150, 430, 650, 540), fill=(70, 48, 32))
    draw.chord(_box(150, 150, 650, 560), 0, 180, fill=(40, 40, 48))  # bowl
    draw.ellipse(_box(150, 300, 650, 400), fill=(40, 40, 48))
    draw.ellipse(_box(170, 310, 630, 392), fill=broth)
    for _ in range(14):  # noodles
        x = rng.uniform(220, 560)
        draw.arc(_box(x, 320, x + 70, 380), 0, 180, fill=(246, 222, 150), width=5 * SCALE)
    for shape in toppings:
        shape(draw)


def _egg(draw: Draw) -> None:
    draw.ellipse(_box(430, 318, 520, 368), fill=(250, 250, 245))
    draw.ellipse(_box(455, 330, 495, 356), fill=(240, 160, 40))


def _pork(draw: Draw) -> None:
    draw.ellipse(_box(260, 322, 360, 372), fill=(200, 140, 110))
    draw.ellipse(_box(276, 332, 344, 362), fill=(230, 190, 170))


def _chilli(draw: Draw) -> None:
    for x in (330, 380, 420):
        draw.ellipse(_box(x, 340, x + 22, 356), fill=(210, 40, 30))


def _nori(draw: Draw) -> None:
    draw.rectangle(_box(540, 250, 590, 350), fill=(30, 50, 36))


def _gyoza(draw: Draw, rng: random.Random) -> None:
    _plate(draw)
    for n in range(5):
        x = 210 + n * 80
        draw.chord(_box(x, 340, x + 110, 460), 180, 360, fill=(240, 228, 200))
        draw.chord(_box(x, 390, x + 110, 420), 0, 180, fill=(196, 140, 70))
        for k in range(4):
            draw.arc(_box(x + 20 + k * 18, 345, x + 40 + k * 18, 365), 180, 360, fill=(210, 196, 170), width=2 * SCALE)


def _edamame(draw: Draw, rng: random.Random) -> None:
    draw.ellipse(_box(180, 420, 620, 530), fill=(70, 48, 32))
    draw.ellipse(_box(180, 380, 620, 500), fill=(250, 250, 245))
    for _ in range(30):
        x, y = rng.uniform(240, 520), rng.uniform(385, 455)
        draw.rounded_rectangle(_box(x, y, x + 70, y + 24), radius=12 * SCALE, fill=(104, 170, 60))
        for k in range(3):
            draw.ellipse(_box(x + 8 + k * 20, y + 5, x + 22 + k * 20, y + 19), fill=(130, 196, 80))


def _tea(draw: Draw, rng: random.Random) -> None:
    draw.ellipse(_box(270, 470, 530, 520), fill=(70, 48, 32))
    draw.rounded_rectangle(_box(290, 260, 510, 500), radius=40 * SCALE, fill=(236, 232, 220))
    draw.ellipse(_box(300, 250, 500, 300), fill=(150, 170, 70))
    for x in (350, 400, 450):  # steam
        draw.arc(_box(x - 20, 150, x + 20, 230), 270, 90, fill=(250, 250, 250), width=4 * SCALE)


# key -> (the background's top colour, its bottom colour, what draws the food)
DRAWINGS: dict[str, tuple[Color, Color, Callable[[Draw, random.Random], None]]] = {
    "classic-burger": ((255, 214, 170), (250, 180, 130), lambda d, r: _burger(d, r, extra=(250, 200, 40))),
    "truffle-burger": ((90, 80, 90), (50, 44, 50), lambda d, r: _burger(d, r, bun=(120, 80, 46), patty=(70, 40, 24))),
    "fries": ((255, 230, 160), (250, 200, 120), _fries),
    "onion-rings": ((255, 220, 180), (240, 180, 130), _rings),
    "cola": ((200, 60, 50), (150, 30, 30), lambda d, r: _glass(d, r, (70, 30, 20))),
    "lemonade": (
        (255, 246, 170),
        (250, 220, 110),
        lambda d, r: _glass(d, r, (250, 236, 140), slice_color=(250, 220, 40)),
    ),
    "tonkotsu-ramen": (
        (250, 236, 214),
        (228, 200, 170),
        lambda d, r: _bowl(d, r, (240, 222, 190), (_pork, _egg, _nori)),
    ),
    "spicy-miso-ramen": ((250, 214, 190), (230, 150, 120), lambda d, r: _bowl(d, r, (214, 110, 50), (_pork, _chilli))),
    "gyoza": ((236, 240, 230), (210, 218, 200), _gyoza),
    "edamame": ((230, 244, 220), (190, 220, 170), _edamame),
    "green-tea": ((226, 240, 220), (180, 210, 170), _tea),
}


def demo_photo(key: str) -> io.BytesIO:
    """The drawing `key` as PNG bytes, as an owner would upload it (deterministic)."""
    top, bottom, draw_food = DRAWINGS[key]
    image, draw = _canvas(top, bottom)
    draw_food(draw, random.Random(key))
    image = image.filter(ImageFilter.SMOOTH).resize((WIDTH, HEIGHT), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    image.save(out, format="PNG")
    out.seek(0)
    return out
