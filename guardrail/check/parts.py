"""The parts a :class:`~guardrail.Guard` checks with, in one frozen bundle (private to the guard).

:class:`Parts` holds the config, the detectors, the models (made on first use), the
passage-graph cache, the log sinks and the knowledge base. It is frozen: a guard with
another knowledge base (``Guard.with_kb``) gets a new bundle sharing the models, the cache
and the sinks, never a changed one.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from guardrail._lazy import Lazy
from guardrail.check.args import check_detectors, check_log, check_sizes, fit_config, kb_switch, resolve_config
from guardrail.config import GuardConfig
from guardrail.detectors import Detector, build_detectors, check_params
from guardrail.extract.cache import PassageCache
from guardrail.log.sinks import open_sinks

if TYPE_CHECKING:  # pragma: no cover
    from guardrail.align.encoder import TextEncoder
    from guardrail.explain.base import Explainer
    from guardrail.extract.base import Extractor
    from guardrail.log.records import LogSink

__all__ = ["Parts", "make_parts"]


def _given(value: Any) -> Lazy[Any]:
    return Lazy(lambda: value)


def _config_extractor(config: GuardConfig) -> Extractor:
    from guardrail.extract.llm_extractor import extractor_for

    extractor: Extractor = extractor_for(config)
    return extractor


def _shared_encoder() -> TextEncoder:
    from guardrail.align.encoder import shared_encoder

    return shared_encoder()


def _kea_explainer() -> Explainer:
    from guardrail.explain.kea import KEAExplainer

    return KEAExplainer()


@dataclass(frozen=True)
class Parts:
    """Everything one guard checks with.

    Parameters
    ----------
    config : GuardConfig
        The config every input is checked with.
    custom : tuple of Detector or None
        Detectors passed to the guard (the config is fitted to them), else None.
    kb : KBSwitch or None
        The knowledge base and its vocabulary.
    cache : PassageCache
        Passage graphs, parsed once.
    lock : threading.RLock
        Guards the cache, the parser and the detector table.
    sinks : tuple of LogSink
        Where flagged results are written.
    extractor, encoder, explainer : Lazy
        The models, made on first use.
    plain : tuple or None
        ``(custom, config)`` before a KB added ``kb_facts`` to ``custom``; ``with_kb`` starts from it.
    """

    config: GuardConfig
    custom: tuple[Detector, ...] | None
    kb: Any
    cache: PassageCache
    lock: threading.RLock
    sinks: tuple[LogSink, ...]
    extractor: Lazy[Extractor]
    encoder: Lazy[TextEncoder]
    explainer: Lazy[Explainer]
    _built: dict[str, list[Detector]] = field(default_factory=dict, compare=False, repr=False)
    plain: tuple[tuple[Detector, ...] | None, GuardConfig] | None = None

    def detectors_for(self, config: GuardConfig) -> list[Detector]:
        """The detector instances of ``config`` (the passed ones, or built once per config)."""
        if self.custom is not None:
            return list(self.custom)
        with self.lock:
            if config.name not in self._built:
                names = list(config.detectors) + [v for v in config.veto if v not in config.detectors]
                self._built[config.name] = build_detectors(names, dict(config.detector_params))
            return self._built[config.name]

    def with_kb(self, kb: object, profile: object = None) -> Parts:
        """These parts checking against ``kb`` (``None``: no KB); models, cache and sinks shared.

        Raises
        ------
        InvalidInputError
            A bad ``kb`` or ``profile``.
        """
        from guardrail.kb.switch import KBSwitch, with_kb_detector

        switch = KBSwitch.create(kb, profile)
        plain = self.plain or (self.custom, self.config)  # without a KB's kb_facts
        custom, config = plain
        added = with_kb_detector(list(custom)) if switch is not None and custom is not None else []
        if custom is not None and len(added) > len(custom):
            custom, config = tuple(added), fit_config(config, [d.name for d in added])
        return dataclasses.replace(self, kb=switch, custom=custom, config=config, _built={},
                                   plain=plain if custom is not plain[0] else None)


def make_parts(
    config: object, *, extractor: Extractor | None, detectors: Sequence[Detector] | None,
    encoder: TextEncoder | None, explainer: Explainer | None, log: Any, sizes: tuple[int, int],
    kb: Any, kb_profile: Any,
) -> Parts:
    """The parts of ``Guard(...)`` from its arguments, every one checked now.

    Raises
    ------
    InvalidInputError, ConfigError, KnowledgeBaseError
        As :class:`~guardrail.Guard` documents.
    """
    check_sizes(context_cache_size=sizes[0], context_cache_chars=sizes[1])
    check_log(log)
    custom = check_detectors(detectors)
    cfg = resolve_config(config)
    switch = kb_switch(kb, kb_profile, cfg)
    plain = None
    if switch is not None and custom is not None:
        from guardrail.kb.switch import with_kb_detector

        added = with_kb_detector(custom)
        if added is not custom:  # what with_kb(None) restores
            plain = (tuple(custom), fit_config(cfg, [d.name for d in custom]))
        custom = added
    if custom is None:
        check_params([cfg])
    else:
        cfg = fit_config(cfg, [d.name for d in custom])
    if extractor is None and cfg.extractor != "spacy":  # fail now, not at the first check
        extractor = _config_extractor(cfg)
    lock = threading.RLock()
    return Parts(
        config=cfg, custom=None if custom is None else tuple(custom), kb=switch,
        cache=PassageCache(sizes[0], lock, sizes[1]), lock=lock, sinks=tuple(open_sinks(log)), plain=plain,
        extractor=Lazy(lambda: _config_extractor(cfg)) if extractor is None else _given(extractor),
        encoder=Lazy(_shared_encoder) if encoder is None else _given(encoder),
        explainer=Lazy(_kea_explainer) if explainer is None else _given(explainer),
    )
