"""The package's PEP 517 build backend, standard library only, so that `pip install ./extensions/jupyter` needs no
download: these machines reach Debian's archive but not PyPI, and pip's isolated build would fetch setuptools.
It builds a pure-Python wheel (py3-none-any) of the nsys_ai folder and an sdist of the project. Name, version,
summary and Python requirement come from pyproject.toml's [project] table."""

import base64
import hashlib
import io
import os
import re
import tarfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = "nsys_ai"
SDIST_FILES = ("pyproject.toml", "build_backend.py", "README.md")


def _project():
    with open(os.path.join(HERE, "pyproject.toml"), encoding="utf-8") as f:
        text = f.read()
    table = text.split("[project]", 1)[1].split("\n[", 1)[0]
    fields = dict(re.findall(r'^([a-z-]+)\s*=\s*"([^"]*)"', table, re.M))
    return fields["name"], fields["version"], fields.get("description", ""), fields.get("requires-python", "")


def _package_files():
    folder = os.path.join(HERE, PACKAGE)
    return sorted(os.path.join(PACKAGE, n) for n in os.listdir(folder) if n.endswith((".py", ".js")))


def _metadata():
    name, version, summary, python = _project()
    with open(os.path.join(HERE, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    lines = ["Metadata-Version: 2.1", "Name: " + name, "Version: " + version, "Summary: " + summary,
             "License: Apache-2.0", "Provides-Extra: notebook", 'Requires-Dist: ipykernel; extra == "notebook"',
             'Requires-Dist: pandas; extra == "notebook"', "Description-Content-Type: text/markdown"]
    if python:
        lines.append("Requires-Python: " + python)
    return "\n".join(lines) + "\n\n" + readme


def _dist_name():
    name, version, _, _ = _project()
    return re.sub(r"[-_.]+", "_", name), version


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    dist, version = _dist_name()
    info = "%s-%s.dist-info" % (dist, version)
    filename = "%s-%s-py3-none-any.whl" % (dist, version)
    entries = []
    for rel in _package_files():
        with open(os.path.join(HERE, rel), "rb") as f:
            entries.append((rel.replace(os.sep, "/"), f.read()))
    entries.append((info + "/METADATA", _metadata().encode("utf-8")))
    entries.append((info + "/WHEEL", b"Wheel-Version: 1.0\nGenerator: nsys-ai build_backend\n"
                                     b"Root-Is-Purelib: true\nTag: py3-none-any\n"))
    record = io.StringIO()
    for path, data in entries:
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")
        record.write("%s,sha256=%s,%d\n" % (path, digest, len(data)))
    record.write(info + "/RECORD,,\n")
    entries.append((info + "/RECORD", record.getvalue().encode("utf-8")))
    with zipfile.ZipFile(os.path.join(wheel_directory, filename), "w", zipfile.ZIP_DEFLATED) as wheel:
        for path, data in entries:
            wheel.writestr(zipfile.ZipInfo(path, date_time=(2020, 1, 1, 0, 0, 0)), data, zipfile.ZIP_DEFLATED)
    return filename


def build_sdist(sdist_directory, config_settings=None):
    name, version, _, _ = _project()
    base = "%s-%s" % (_dist_name()[0], version)
    filename = base + ".tar.gz"
    with tarfile.open(os.path.join(sdist_directory, filename), "w:gz") as sdist:
        for rel in SDIST_FILES + tuple(_package_files()):
            sdist.add(os.path.join(HERE, rel), arcname=base + "/" + rel.replace(os.sep, "/"))
        info = _metadata().encode("utf-8")
        entry = tarfile.TarInfo(base + "/PKG-INFO")
        entry.size = len(info)
        sdist.addfile(entry, io.BytesIO(info))
    return filename
