"""Context.save_image: a provider writes the images its entries show in the run's image directory."""
import json

import pytest

from widgetkit import Entry, ImageNotSaved, Timeline, TimelineProvider, answer, never
from widgetkit.provider import Context

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 24


def request(kind="timeline", image_directory=None):
    context = {"now": "2026-01-05T08:00:00Z"}
    if image_directory is not None:
        context["imageDirectory"] = str(image_directory)
    return {"protocol": 1, "request": kind, "kind": "photo", "widget": {"id": "w1", "family": "systemSmall"},
            "context": context}


def test_save_image_writes_the_file_and_returns_its_name(tmp_path):
    context = Context(request(image_directory=tmp_path))
    assert context.image_directory == str(tmp_path)
    assert context.save_image(PNG, "cat.png") == "cat.png"
    assert (tmp_path / "cat.png").read_bytes() == PNG
    # Again under the same name: the file is replaced, not appended to.
    context.save_image(bytearray(b"\xff\xd8\xff\xe0"), "cat.png")
    assert (tmp_path / "cat.png").read_bytes() == b"\xff\xd8\xff\xe0"


@pytest.mark.parametrize("name", ["", "a/b.png", "../up.png", ".hidden.png", "nul\0.png", "x" * 252 + "é.png",
                                  None, 42])
def test_save_image_refuses_a_name_that_is_not_a_plain_file_name(tmp_path, name):
    with pytest.raises(ImageNotSaved, match="expected a plain file name of 1 to 255 bytes"):
        Context(request(image_directory=tmp_path)).save_image(PNG, name)
    assert list(tmp_path.iterdir()) == []


def test_a_name_of_255_bytes_is_accepted(tmp_path):
    name = "x" * 251 + ".png"
    assert Context(request(image_directory=tmp_path)).save_image(PNG, name) == name


@pytest.mark.parametrize("kind", ["placeholder", "defaults", "options"])
def test_save_image_refuses_a_request_without_an_image_directory(kind):
    with pytest.raises(ImageNotSaved, match="this %s request has no image directory" % kind):
        Context(request(kind)).save_image(PNG, "cat.png")


def test_save_image_refuses_data_that_is_not_bytes(tmp_path):
    with pytest.raises(TypeError, match="expected the image's bytes, found str"):
        Context(request(image_directory=tmp_path)).save_image("not bytes", "cat.png")


class Photo(TimelineProvider):
    def placeholder(self, context):
        return Entry(context.now, {"caption": "A photo"})

    def timeline(self, context):
        return Timeline([Entry(context.now, {"photo": context.save_image(PNG, "today.png"), "caption": "Today"})],
                        never())


def test_an_entry_names_the_image_it_saved(tmp_path):
    result = answer(Photo(), request(image_directory=tmp_path))
    assert result["entries"][0]["content"] == {"photo": "today.png", "caption": "Today"}
    assert (tmp_path / "today.png").read_bytes() == PNG
    assert json.loads(json.dumps(answer(Photo(), request("placeholder")))) == {
        "entry": {"date": "2026-01-05T08:00:00Z", "content": {"caption": "A photo"}}}
