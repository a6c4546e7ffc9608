# Makes lavapipe take NVIDIA's knobs: the vendor id the kernels compare with becomes lavapipe's.
import array_api_vulkan as xp
from array_api_vulkan._kernels import _launch

dev = xp.asarray([1.0])._alloc.device
_launch.NVIDIA_VENDOR_ID = dev.info["vendor_id"]
print("faking NVIDIA vendor id", hex(dev.info["vendor_id"]))
