//! The probe service's messages, as either side receives them: any bytes must be refused
//! with a reason or decoded within the stated bounds, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ringbar::records::wire;

fuzz_target!(|data: &[u8]| {
    let _ = wire::decode_hello(data);
    let _ = wire::decode_request(data);
    let _ = wire::decode_iterator(data);
    let _ = wire::service_message_op(data);
    let mut exits = Vec::new();
    if wire::decode_exits(data, &mut exits).is_ok() {
        assert!(exits.len() <= wire::MAX_EXITS_PER_MESSAGE);
        // What decodes encodes back to the same bytes.
        let lost = wire::decode_exits(data, &mut Vec::new()).expect("decoded once");
        let mut again = Vec::new();
        wire::encode_exits(&exits, lost, &mut again);
        assert_eq!(&again[..12], &data[..12]);
        assert_eq!(&again[16..24], &data[16..24]);
        assert_eq!(again.len(), data.len());
    }
});
