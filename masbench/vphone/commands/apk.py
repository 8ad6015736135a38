"""What the package installer reads from an APK before installing it: that it is a ZIP holding a binary
`AndroidManifest.xml`, and the `package` attribute of its `<manifest>` element. Failures carry the install
status and message Android's ApkLiteParseUtils reports for the same defect."""

from __future__ import annotations

import io
import struct
import zipfile

MANIFEST = "AndroidManifest.xml"
RES_XML_TYPE = 0x0003
RES_STRING_POOL_TYPE = 0x0001
RES_XML_START_ELEMENT_TYPE = 0x0102
UTF8_FLAG = 0x100
TYPE_STRING = 0x03


class ApkError(Exception):
    """An APK the installer refuses: `status` is the INSTALL_* code, `detail` the text after it."""

    def __init__(self, status: str, detail: str) -> None:
        super().__init__(f"{status}: {detail}")
        self.status = status
        self.detail = detail


def package_name(data: bytes, path: str) -> str:
    """The package an APK declares; `path` is where the installer's session holds it (for messages)."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            manifest = archive.read(MANIFEST)
    except (zipfile.BadZipFile, ValueError, EOFError):
        raise ApkError(
            "INSTALL_PARSE_FAILED_NOT_APK", f"Failed to parse {path}: Failed to load asset path {path}"
        ) from None
    except (KeyError, zipfile.LargeZipFile, NotImplementedError, OSError):
        raise ApkError("INSTALL_PARSE_FAILED_UNEXPECTED_EXCEPTION", f"Failed to parse {path}") from None
    try:
        element, attributes = _first_element(manifest)
    except (struct.error, IndexError, ValueError, UnicodeDecodeError):
        raise ApkError("INSTALL_PARSE_FAILED_UNEXPECTED_EXCEPTION", f"Failed to parse {path}") from None
    if element != "manifest":
        raise ApkError("INSTALL_PARSE_FAILED_MANIFEST_MALFORMED", f"{path} (at Binary XML file line #1): No <manifest> tag")  # fmt: skip
    package = attributes.get("package", "")
    if not package:
        raise ApkError("INSTALL_PARSE_FAILED_BAD_MANIFEST", f"{path} (at Binary XML file line #1): <manifest> does not specify package")  # fmt: skip
    return package


def _first_element(axml: bytes) -> tuple[str, dict[str, str]]:
    """Name and string attributes of the first element of Android's binary XML (ResXMLTree)."""
    kind, header_size, _ = struct.unpack_from("<HHI", axml, 0)
    if kind != RES_XML_TYPE:
        raise ValueError("not binary XML")
    strings: list[str] = []
    offset = header_size
    while offset + 8 <= len(axml):
        kind, header_size, size = struct.unpack_from("<HHI", axml, offset)
        if size < 8:
            raise ValueError("bad chunk size")
        if kind == RES_STRING_POOL_TYPE:
            strings = _string_pool(axml, offset)
        elif kind == RES_XML_START_ELEMENT_TYPE:
            _, name, start, attr_size, count = struct.unpack_from("<IIHHH", axml, offset + 16)
            attributes = {}
            for n in range(count):
                at = offset + 16 + start + n * attr_size
                _, attr_name, raw, _, _, data_type, data = struct.unpack_from("<IIIHBBI", axml, at)
                value = raw if raw != 0xFFFFFFFF else (data if data_type == TYPE_STRING else None)
                if value is not None:
                    attributes[strings[attr_name]] = strings[value]
            return strings[name], attributes
        offset += size
    raise ValueError("no element")


def _string_pool(data: bytes, offset: int) -> list[str]:
    _, header_size, _, count, _, flags, strings_start, _ = struct.unpack_from("<HHIIIIII", data, offset)
    offsets = struct.unpack_from(f"<{count}I", data, offset + header_size)
    base = offset + strings_start
    return [_pool_string(data, base + at, bool(flags & UTF8_FLAG)) for at in offsets]


def _pool_string(data: bytes, at: int, utf8: bool) -> str:
    if utf8:
        at += 2 if data[at] & 0x80 else 1  # length in UTF-16 units, then in bytes
        length = data[at]
        if length & 0x80:
            length = ((length & 0x7F) << 8) | data[at + 1]
            at += 1
        return data[at + 1 : at + 1 + length].decode("utf-8")
    (length,) = struct.unpack_from("<H", data, at)
    at += 2
    if length & 0x8000:
        length = ((length & 0x7FFF) << 16) | struct.unpack_from("<H", data, at)[0]
        at += 2
    return data[at : at + 2 * length].decode("utf-16-le")
