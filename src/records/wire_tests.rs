use super::*;

fn exit(tgid: u32) -> ExitRecord {
    ExitRecord {
        tgid,
        cpu_ns: u64::from(tgid) * 1000,
        comm: *b"gone\0\0\0\0\0\0\0\0\0\0\0\0",
        ..ExitRecord::default()
    }
}

#[test]
fn messages_round_trip() {
    let mut buf = Vec::new();
    encode_hello(&mut buf);
    assert_eq!(buf.len(), HELLO_LEN);
    assert_eq!(decode_hello(&buf), Ok(()));

    encode_request(Op::Iterator, &mut buf);
    assert_eq!(buf.len(), REQUEST_LEN);
    assert_eq!(decode_request(&buf), Ok(Op::Iterator));
    encode_request(Op::Walk, &mut buf);
    assert_eq!(decode_request(&buf), Ok(Op::Walk));

    let walked = Walked {
        status: 0,
        count: 312,
        walked_ns: 1 << 40,
    };
    encode_walked(walked, &mut buf);
    assert_eq!(buf.len(), WALKED_LEN);
    assert_eq!(service_message_op(&buf), Ok(Op::Walk));
    assert_eq!(decode_walked(&buf), Ok(walked));
    let refused = Walked {
        status: 75,
        ..Walked::default()
    };
    encode_walked(refused, &mut buf);
    assert_eq!(decode_walked(&buf), Ok(refused));
    assert_eq!(decode_walked(&buf[..23]), Err(WireError::Size));
    encode_iterator(0, &mut buf);
    assert_eq!(decode_walked(&buf), Err(WireError::Size));

    let records: Vec<ExitRecord> = (1..=3).map(exit).collect();
    encode_exits(&records, 7, &mut buf);
    assert_eq!(service_message_op(&buf), Ok(Op::Exits));
    let mut out = vec![exit(99)];
    assert_eq!(decode_exits(&buf, &mut out), Ok(7), "lost so far");
    assert_eq!(&out[1..], &records[..], "appended after what was there");

    encode_iterator(0, &mut buf);
    assert_eq!(service_message_op(&buf), Ok(Op::Iterator));
    assert_eq!(decode_iterator(&buf), Ok(0));
    encode_iterator(1, &mut buf);
    assert_eq!(decode_iterator(&buf), Ok(1));
}

#[test]
fn a_large_backlog_is_cut_to_one_message() {
    let records: Vec<ExitRecord> = (0..MAX_EXITS_PER_MESSAGE as u32 + 10).map(exit).collect();
    let mut buf = Vec::new();
    encode_exits(&records, 0, &mut buf);
    assert_eq!(buf.len(), MAX_MESSAGE_LEN);
    let mut out = Vec::new();
    decode_exits(&buf, &mut out).expect("exits");
    assert_eq!(out.len(), MAX_EXITS_PER_MESSAGE);
}

#[test]
fn wrong_messages_are_refused_with_a_reason() {
    let mut hello = Vec::new();
    encode_hello(&mut hello);
    assert_eq!(decode_hello(&hello[..11]), Err(WireError::Size));
    let mut other = hello.clone();
    other[0] = b'X';
    assert_eq!(decode_hello(&other), Err(WireError::Magic));
    let mut newer = hello.clone();
    newer[4] = VERSION as u8 + 1;
    assert_eq!(decode_hello(&newer), Err(WireError::Version(VERSION + 1)));
    let mut bigger = hello.clone();
    bigger[8] = 57;
    assert_eq!(decode_hello(&bigger), Err(WireError::RecordSize));

    let mut request = Vec::new();
    encode_request(Op::Walk, &mut request);
    request[6] = 9;
    assert_eq!(decode_request(&request), Err(WireError::Op));
    request[6] = Op::Exits as u8; // exits are the service's to send, not to ask for
    assert_eq!(decode_request(&request), Err(WireError::Op));
    assert_eq!(service_message_op(&request[..7]), Err(WireError::Size));
    assert_eq!(decode_request(b""), Err(WireError::Size));

    let mut exits = Vec::new();
    encode_exits(&[exit(1), exit(2)], 0, &mut exits);
    let mut out = Vec::new();
    assert_eq!(
        decode_exits(&exits[..exits.len() - 1], &mut out),
        Err(WireError::Count)
    );
    let mut lying = exits.clone();
    lying[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
    assert_eq!(decode_exits(&lying, &mut out), Err(WireError::Count));
    let mut iterator = Vec::new();
    encode_iterator(0, &mut iterator);
    assert_eq!(decode_exits(&iterator, &mut out), Err(WireError::Size));
    assert_eq!(decode_iterator(&exits[..12]), Err(WireError::Op));
    assert!(out.is_empty(), "nothing from a refused message");
}

#[test]
fn a_refusal_comes_instead_of_the_greeting_and_says_why() {
    let mut hello = Vec::new();
    encode_hello(&mut hello);
    assert_eq!(decode_greeting(&hello), Ok(Ok(())));
    let mut refused = Vec::new();
    for refusal in [Refusal::UserLimit { limit: 8 }, Refusal::Full { limit: 64 }] {
        encode_refused(refusal, &mut refused);
        assert_eq!(refused.len(), REFUSED_LEN);
        assert_eq!(decode_greeting(&refused), Ok(Err(refusal)));
    }
    assert_eq!(
        Refusal::UserLimit { limit: 8 }.to_string(),
        "this user already holds 8 connections, the most one user may"
    );
    refused[8] = 7;
    assert_eq!(decode_greeting(&refused), Err(WireError::Op));
    assert_eq!(decode_greeting(&refused[..12]), Err(WireError::RecordSize));
}
