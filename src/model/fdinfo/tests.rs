use super::*;

fn engine<'a>(info: &'a DrmFdinfo, name: &str) -> &'a Engine {
    info.engines()
        .iter()
        .find(|e| e.name() == name.as_bytes())
        .unwrap_or_else(|| panic!("no engine {name} in {info:?}"))
}

#[test]
fn i915_engines_capacity_and_regions() {
    // The layout i915 prints (tabs after the colon), with the per-region memory keys.
    let info = DrmFdinfo::parse(
        b"pos:\t0\nflags:\t02100002\nmnt_id:\t26\nino:\t685\n\
          drm-driver:\ti915\ndrm-client-id:\t157\ndrm-pdev:\t0000:00:02.0\n\
          drm-total-system0:\t12 MiB\ndrm-shared-system0:\t0\ndrm-active-system0:\t0\n\
          drm-resident-system0:\t11 MiB\ndrm-purgeable-system0:\t0\n\
          drm-total-stolen-system0:\t0\ndrm-resident-stolen-system0:\t0\n\
          drm-engine-render:\t9288864723 ns\ndrm-engine-copy:\t0 ns\n\
          drm-engine-video:\t5000 ns\ndrm-engine-capacity-video:\t2\n\
          drm-engine-video-enhance:\t0 ns\n",
    );
    assert!(info.has_driver);
    assert_eq!(info.client_id, Some(157));
    assert_eq!(info.pdev, PciSlot::parse("0000:00:02.0"));
    assert_eq!(info.engines().len(), 4);
    assert_eq!(engine(&info, "render").busy_ns, Some(9_288_864_723));
    assert_eq!(engine(&info, "render").capacity(), 1);
    assert_eq!(engine(&info, "video").capacity(), 2);
    assert_eq!(engine(&info, "video-enhance").busy_ns, Some(0));
    assert_eq!(info.resident_bytes, Some(11 << 20));
    assert_eq!(info.total_bytes, Some(12 << 20));
    assert_eq!(info.memory_bytes(), Some(11 << 20), "resident first");
}

#[test]
fn xe_cycles_against_the_gpu_timestamp() {
    let info = DrmFdinfo::parse(
        b"drm-driver:\txe\ndrm-client-id:\t4\ndrm-pdev:\t0000:03:00.0\n\
          drm-total-gtt:\t4 KiB\ndrm-resident-gtt:\t4 KiB\n\
          drm-total-vram0:\t23992 KiB\ndrm-resident-vram0:\t23992 KiB\n\
          drm-cycles-rcs:\t28257900\ndrm-total-cycles-rcs:\t7655183225\n\
          drm-cycles-bcs:\t0\ndrm-total-cycles-bcs:\t7655183225\n\
          drm-cycles-ccs:\t7\ndrm-total-cycles-ccs:\t7655183225\n\
          drm-engine-capacity-ccs:\t4\n",
    );
    let rcs = engine(&info, "rcs");
    assert_eq!(rcs.cycles, Some(28_257_900));
    assert_eq!(rcs.total_cycles, Some(7_655_183_225));
    assert_eq!(rcs.busy_ns, None);
    assert_eq!(engine(&info, "ccs").capacity(), 4);
    assert_eq!(info.resident_bytes, Some(4 * 1024 + 23992 * 1024));
    assert_eq!(
        info.total_bytes, info.resident_bytes,
        "total-cycles is no region"
    );
}

#[test]
fn amdgpu_legacy_memory_keys() {
    let info = DrmFdinfo::parse(
        b"drm-driver:\tamdgpu\ndrm-pdev:\t0000:0a:00.0\ndrm-client-id:\t42\n\
          pasid:\t32772\ndrm-memory-vram:\t125000 KiB\ndrm-memory-gtt:\t2048 KiB\n\
          drm-memory-cpu:\t0 KiB\namd-memory-visible-vram:\t125000 KiB\n\
          drm-engine-gfx:\t1207512301 ns\ndrm-engine-compute:\t0 ns\n\
          drm-engine-dec:\t5160 ns\n",
    );
    assert_eq!(info.pdev, PciSlot::parse("0000:0A:00.0"), "any case");
    assert_eq!(info.legacy_memory_bytes, Some(127_048 * 1024));
    assert_eq!(info.memory_bytes(), Some(127_048 * 1024));
    assert_eq!(info.engines().len(), 3, "amd-* keys are not drm keys");
    assert_eq!(engine(&info, "gfx").busy_ns, Some(1_207_512_301));
}

#[test]
fn units_bytes_kib_mib_and_unknown() {
    let info = DrmFdinfo::parse(b"drm-driver: x\ndrm-total-a: 512\ndrm-total-b: 1 KiB\n");
    assert_eq!(info.total_bytes, Some(1536));
    let info = DrmFdinfo::parse(b"drm-driver: x\ndrm-total-a: 3 MiB\ndrm-total-b: 9 GB\n");
    assert_eq!(
        info.total_bytes,
        Some(3 << 20),
        "an unknown unit is skipped"
    );
    let info = DrmFdinfo::parse(b"drm-engine-render: 10 ms\ndrm-engine-copy: 10\n");
    assert_eq!(
        info.engines().iter().map(|e| e.busy_ns).collect::<Vec<_>>(),
        [Some(10)],
        "ns or no unit only"
    );
    assert!(!info.has_driver);
}

#[test]
fn huge_numbers_neither_overflow_nor_wrap() {
    let info = DrmFdinfo::parse(
        b"drm-driver: x\ndrm-client-id: 18446744073709551615\n\
          drm-engine-render: 18446744073709551615 ns\n\
          drm-engine-copy: 18446744073709551616 ns\n\
          drm-total-a: 18446744073709551615 MiB\n\
          drm-resident-a: 18446744073709551615\ndrm-resident-b: 1\n",
    );
    assert_eq!(info.client_id, Some(u64::MAX));
    assert_eq!(engine(&info, "render").busy_ns, Some(u64::MAX));
    assert_eq!(info.engines().len(), 1, "past u64: skipped");
    assert_eq!(info.total_bytes, None, "MiB past u64: skipped");
    assert_eq!(info.resident_bytes, Some(u64::MAX), "the sum saturates");
}

#[test]
fn garbage_is_skipped() {
    let info = DrmFdinfo::parse(
        b"\n:\ndrm-\ndrm-:1\ndrm-engine-: 5 ns\nno colon here\ndrm-engine-render 5 ns\n\
          drm-pdev: 0000:00:02\ndrm-client-id: -3\n\xff\xfe: 1\ndrm-total-: 4\n\
          drm-engine-capacity-render: 0\ndrm-cycles-rcs: x\ndrm-driver:\n\
          drm-engine-render: 1 2 ns\n",
    );
    assert_eq!(info, DrmFdinfo::default(), "{info:?}");
}

#[test]
fn engines_past_the_room_and_long_names_are_ignored() {
    let mut text = String::from("drm-driver: x\n");
    for i in 0..ENGINES + 3 {
        text.push_str(&format!("drm-engine-e{i}: {i} ns\n"));
    }
    text.push_str(&format!(
        "drm-engine-{}: 1 ns\n",
        "n".repeat(ENGINE_NAME + 1)
    ));
    // A capacity for a known engine still lands once the room is full.
    text.push_str("drm-engine-capacity-e0: 3\n");
    let info = DrmFdinfo::parse(text.as_bytes());
    assert_eq!(info.engines().len(), ENGINES);
    assert_eq!(engine(&info, "e0").capacity(), 3);
    assert_eq!(engine(&info, "e11").busy_ns, Some(11));
}

#[test]
fn pci_slots_from_every_spelling() {
    let slot = PciSlot::parse("0000:03:00.0").expect("valid");
    assert_eq!(
        PciSlot::parse("00000000:03:00.0"),
        Some(slot),
        "NVML's domain"
    );
    assert_ne!(PciSlot::parse("0000:03:00.1"), Some(slot));
    assert_ne!(PciSlot::parse("0001:03:00.0"), Some(slot));
    for bad in [
        "",
        "0000:03:00",
        "0000:03.00.0",
        "0000:100:00.0",
        "0000:03:00.8",
        "x:0:0.0",
    ] {
        assert_eq!(PciSlot::parse(bad), None, "{bad}");
    }
}
