"""No copies on the per-frame path: views in, views out, no array allocated per call."""
import gc
import tracemalloc

import numpy as np
import pytest

import retarget

NUMPY_DOMAIN = np.lib.tracemalloc_domain  # numpy reports its array data allocations here


def mappers():
    nao, baxter, tangy = retarget.Robot("nao"), retarget.Robot("baxter"), retarget.Robot("tangy")
    return [retarget.GaLvvjMapper(nao), retarget.TriangleMapper(tangy), retarget.PicMapper(baxter, "pics"),
            retarget.JointSpaceParticleFilter(nao, particles=20), retarget.WholeBodyPipeline(nao)]


def test_motion_arrays_are_views_of_the_frames():
    motion = retarget.demo_motion("wave")
    positions = motion.positions
    assert positions.shape == (len(motion), 25, 3) and not positions.flags.owndata
    assert np.shares_memory(positions, motion.positions)
    assert np.shares_memory(positions[7], motion[7].positions)
    motion[7].positions[3, 2] = 9.5  # writing through one view is seen through the other
    assert positions[7, 3, 2] == 9.5
    assert not motion.times.flags.owndata
    assert motion.times[1] == pytest.approx(1 / 30)


@pytest.mark.parametrize("index", range(5))
def test_map_returns_a_view_of_the_mappers_buffer(index):
    mapper = mappers()[index]
    motion = retarget.demo_motion("arms-raise")
    q1, _ = mapper.map(motion[10])
    q1_copy = q1.copy()
    q2, _ = mapper.map(motion[40])
    assert np.shares_memory(q1, q2), "both calls return the same buffer"
    assert not q1.flags.writeable and not q1.flags.owndata
    assert not np.array_equal(q1_copy, q2)  # the buffer was overwritten by the second call
    out = np.empty(mapper.nq)
    q3, _ = mapper.map(motion[40], out=out)
    assert q3 is out


def numpy_blocks(snapshot):
    """Live numpy data blocks (array buffers) in a tracemalloc snapshot."""
    traces = snapshot.filter_traces([tracemalloc.DomainFilter(True, NUMPY_DOMAIN)])
    return sum(stat.count for stat in traces.statistics("filename"))


@pytest.mark.parametrize("index", range(5))
def test_per_frame_map_allocates_no_array(index):
    """Every result of many calls is kept alive: a copy would leave one numpy data block each."""
    mapper = mappers()[index]
    motion = retarget.demo_motion("wave")
    frames = [motion[k] for k in range(len(motion))]
    positions = motion.positions
    out = np.empty(mapper.nq)
    for k in range(20):  # warm-up: first-call caches (the Status flag values) settle
        mapper.map(frames[k])
        mapper.map(positions[k], out=out)
    gc.collect()
    tracemalloc.start()
    try:
        before = numpy_blocks(tracemalloc.take_snapshot())
        kept = []
        for k, frame in enumerate(frames):
            kept.append(mapper.map(frame))
            kept.append(mapper.map(positions[k], out=out))
        during = numpy_blocks(tracemalloc.take_snapshot())
        assert during == before, f"{during - before} numpy data blocks for {len(kept)} calls"
        # The measurement sees copies: ten copied results are ten blocks.
        copies = [np.array(q) for q, _ in kept[:10]]
        assert numpy_blocks(tracemalloc.take_snapshot()) >= before + len(copies)
        del kept, copies
        # Nothing accumulates over many calls either (views, tuples and flags are all freed).
        gc.collect()
        start = tracemalloc.get_traced_memory()[0]
        for _ in range(3):
            for k, frame in enumerate(frames):
                mapper.map(frame)
                mapper.map(positions[k], out=out)
        gc.collect()
        growth = tracemalloc.get_traced_memory()[0] - start
        assert growth < 16 * 1024, f"{growth} bytes left after {6 * len(frames)} calls"
    finally:
        tracemalloc.stop()


def test_euler_map_takes_a_row_of_the_channels_without_copy(data):
    bvh = retarget.read_bvh(str(data / "bvh" / "cmu_skeleton31_deepmotionediting_example.bvh"))
    mapper = retarget.EulerMapper(retarget.Robot("inmoov"), bvh)
    channels = bvh.channels
    assert np.shares_memory(channels, bvh.channels) and channels.shape == (bvh.frame_count, bvh.channel_count)
    Q, _ = mapper.map_motion(bvh)
    mapper.reset()
    for k in range(bvh.frame_count):
        q, _ = mapper.map(channels[k])
        assert np.array_equal(q, Q[k])
