"""The device layer: observe and act on any adb device through adbutils.

The same code drives a real emulator (``emulator-5554`` on 127.0.0.1:5037), a device farm (any
``HOST:PORT/SERIAL``) and masbench's virtual phone (``vphone-N`` on its own loopback adb server). It
knows nothing about agents or tasks.

    from masbench.device import Device, DeviceAddress
    dev = Device(DeviceAddress.parse("127.0.0.1:40123/vphone-1"))
    obs = dev.observe()          # screenshot + parsed UI dump + foreground app
    dev.tap_element(obs.elements[3]); dev.type_text("héllo")
"""

from .address import DeviceAddress, no_adb_spawn, parse_server
from .connect import DeviceSpecError, check_present, open_device, open_devices, parse_specs
from .device import BroadcastResult, Device, Kind
from .elements import UIElement, parse_bounds, parse_ui_dump
from .errors import (
    AppNotFoundError,
    DeviceCommandError,
    DeviceError,
    DeviceGoneError,
    DeviceTimeoutError,
    NotVirtualError,
    UnsupportedTextError,
)
from .inprocess import InProcessPhone, PhoneSnapshot
from .listing import DeviceInfo, list_devices, scan_server
from .observation import Observation
from .transport import ShellOutput
from .vphones import VirtualPhones, VPhoneMode, open_in_process_phone, parse_vphone_spec, start_virtual_phones

__all__ = [
    "AppNotFoundError",
    "BroadcastResult",
    "Device",
    "DeviceAddress",
    "DeviceCommandError",
    "DeviceError",
    "DeviceGoneError",
    "DeviceInfo",
    "DeviceSpecError",
    "DeviceTimeoutError",
    "InProcessPhone",
    "Kind",
    "NotVirtualError",
    "Observation",
    "PhoneSnapshot",
    "ShellOutput",
    "UIElement",
    "UnsupportedTextError",
    "VPhoneMode",
    "VirtualPhones",
    "check_present",
    "list_devices",
    "no_adb_spawn",
    "open_device",
    "open_devices",
    "open_in_process_phone",
    "parse_bounds",
    "parse_server",
    "parse_specs",
    "parse_ui_dump",
    "parse_vphone_spec",
    "scan_server",
    "start_virtual_phones",
]
