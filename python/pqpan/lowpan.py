"""The 6LoWPAN / IEEE 802.15.4 side names and fields sweep() lays out its columns with (the
run layer's field table). `pqpan estimate --link 802154` (pqpan.estimate_802154()) and
`pqpan simulate --link 802154` (pqpan.simulate_802154()) run on pqpan_run (pqpan.run)."""
from . import fields

SIDES = ("initiator", "responder", "total")

CONFIG_FIELDS = fields.config_fields("802154")


def side_fields():
    """The names of a side's result fields, after "side" and CONFIG_FIELDS, in order (the
    run layer's field table)."""
    return fields.side_fields("802154")
