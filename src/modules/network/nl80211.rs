//! Wi-Fi's network name, signal and channel from nl80211 (generic netlink), asked on the
//! sample tick for each Wi-Fi interface. The kernel sends no event when the signal
//! drifts, and the tick is a wake-up the rates take anyway, so asking there costs no new
//! one. Per interface and tick: one `GET_INTERFACE` (channel, mode, and the network's
//! name where the kernel keeps it) and, for a station, one `GET_STATION` dump (the
//! access point it is associated with, and its signal). Where the interface's answer
//! has no name (a station driven by wpa_supplicant's own SME, on recent kernels), the
//! scan results give it, asked once per access point (`GET_SCAN`, as `iw link` does).
//! The requests are written into a buffer made once and the answers walked in place
//! with netlink-packet-core's attribute iterator: the tick allocates nothing (a decoder
//! into owned messages, such as wl-nl80211's, would allocate a vector per attribute
//! list).

use std::io;
use std::time::Duration;

use netlink_packet_core::{
    parse_u16, parse_u32, Emitable, NetlinkBuffer, NetlinkHeader, NlaBuffer, NlasIterator,
    NLMSG_DONE, NLMSG_ERROR, NLM_F_DUMP, NLM_F_REQUEST,
};
use netlink_sys::{protocols::NETLINK_GENERIC, Socket, SocketAddr};

use super::reading::Wifi;

/// Generic netlink's controller, which names the families' ids (linux/genetlink.h).
const GENL_ID_CTRL: u16 = 0x10;
const CTRL_CMD_GETFAMILY: u8 = 3;
const CTRL_ATTR_FAMILY_ID: u16 = 1;
const CTRL_ATTR_FAMILY_NAME: u16 = 2;
/// linux/nl80211.h.
const NL80211_CMD_GET_INTERFACE: u8 = 5;
const NL80211_CMD_GET_STATION: u8 = 17;
const NL80211_CMD_GET_SCAN: u8 = 32;
const NL80211_ATTR_IFINDEX: u16 = 3;
const NL80211_ATTR_IFTYPE: u16 = 5;
const NL80211_ATTR_MAC: u16 = 6;
const NL80211_ATTR_STA_INFO: u16 = 21;
const NL80211_ATTR_BSS: u16 = 47;
const NL80211_BSS_BSSID: u16 = 1;
const NL80211_BSS_INFORMATION_ELEMENTS: u16 = 6;
/// The information element that holds the SSID (IEEE 802.11).
const ELEMENT_SSID: u8 = 0;
const NL80211_ATTR_WIPHY_FREQ: u16 = 38;
const NL80211_ATTR_SSID: u16 = 52;
const NL80211_IFTYPE_STATION: u32 = 2;
const NL80211_STA_INFO_SIGNAL: u16 = 7;
const NL80211_STA_INFO_SIGNAL_AVG: u16 = 13;

const NETLINK_HEADER: usize = 16;
const GENL_HEADER: usize = 4;
/// An SSID is at most 32 bytes.
const SSID_MAX: usize = 32;
/// The kernel answers at once; a sample must never wait long on it.
const ANSWER_TIMEOUT: Duration = Duration::from_millis(500);

/// One generic netlink socket that speaks nl80211.
pub struct Nl80211 {
    socket: Socket,
    family: u16,
    sequence: u32,
    request: [u8; NETLINK_HEADER + GENL_HEADER + 32],
    buffer: Vec<u8>,
    /// The network names found in scan results, by interface and access point.
    names: Vec<KnownName>,
}

struct KnownName {
    ifindex: u32,
    bssid: [u8; 6],
    ssid: String,
}

impl Nl80211 {
    /// Opens the socket and asks the controller for nl80211's id; `NotFound` when the
    /// kernel has no cfg80211.
    pub fn open() -> io::Result<Nl80211> {
        let mut socket = Socket::new(NETLINK_GENERIC)?;
        socket.bind(&SocketAddr::new(0, 0))?;
        rustix::net::sockopt::set_socket_timeout(
            &socket,
            rustix::net::sockopt::Timeout::Recv,
            Some(ANSWER_TIMEOUT),
        )?;
        let mut nl = Nl80211 {
            socket,
            family: GENL_ID_CTRL,
            sequence: 0,
            request: [0; NETLINK_HEADER + GENL_HEADER + 32],
            buffer: vec![0; 32 * 1024],
            names: Vec::new(),
        };
        let mut family = None;
        nl.ask(
            CTRL_CMD_GETFAMILY,
            false,
            (CTRL_ATTR_FAMILY_NAME, b"nl80211\0"),
            |attributes| {
                family = find(attributes, CTRL_ATTR_FAMILY_ID).and_then(|v| parse_u16(v).ok());
            },
        )?;
        nl.family = family
            .ok_or_else(|| io::Error::new(io::ErrorKind::NotFound, "the kernel has no nl80211"))?;
        Ok(nl)
    }

    /// Fills `out` for the interface `ifindex`: the SSID and channel, and the signal of
    /// the access point it is associated with. Not associated: an empty SSID.
    pub fn read(&mut self, ifindex: u32, out: &mut Wifi) -> io::Result<()> {
        let index = ifindex.to_ne_bytes();
        let mut station = false;
        out.ssid.clear();
        out.frequency_mhz = None;
        out.signal_dbm = None;
        self.ask(
            NL80211_CMD_GET_INTERFACE,
            false,
            (NL80211_ATTR_IFINDEX, &index),
            |attributes| station = interface(attributes, out),
        )?;
        if !station {
            return Ok(());
        }
        let mut access_point = None;
        self.ask(
            NL80211_CMD_GET_STATION,
            true,
            (NL80211_ATTR_IFINDEX, &index),
            |attributes| {
                access_point = station_address(attributes);
                out.signal_dbm = station_signal(attributes);
            },
        )?;
        let Some(bssid) = access_point else {
            // Not associated, whatever the interface still remembers.
            out.ssid.clear();
            return Ok(());
        };
        if out.associated() {
            return Ok(());
        }
        let known = |n: &KnownName| n.ifindex == ifindex && n.bssid == bssid;
        if !self.names.iter().any(known) {
            let mut ssid = None;
            self.ask(
                NL80211_CMD_GET_SCAN,
                true,
                (NL80211_ATTR_IFINDEX, &index),
                |attributes| {
                    if let Some(name) = scanned_ssid(attributes, &bssid) {
                        ssid = Some(name);
                    }
                },
            )?;
            // One access point per interface is remembered: the one it is with.
            self.names.retain(|n| n.ifindex != ifindex);
            self.names.push(KnownName {
                ifindex,
                bssid,
                ssid: ssid.unwrap_or_default(),
            });
        }
        if let Some(name) = self.names.iter().find(|n| known(n)) {
            out.ssid.push_str(&name.ssid);
        }
        Ok(())
    }

    /// Sends `command` with one attribute and hands each answer's attributes to
    /// `on_answer`, until the answer (or the dump) is complete.
    fn ask(
        &mut self,
        command: u8,
        dump: bool,
        (kind, value): (u16, &[u8]),
        mut on_answer: impl FnMut(&[u8]),
    ) -> io::Result<()> {
        self.sequence = self.sequence.wrapping_add(1);
        let length = self.write_request(command, dump, kind, value);
        self.socket.send(&self.request[..length], 0)?;
        loop {
            let received = self.socket.recv(&mut &mut self.buffer[..], 0)?;
            let mut datagram = &self.buffer[..received];
            while let Ok(message) = NetlinkBuffer::new_checked(datagram) {
                let size = (message.length() as usize).max(NETLINK_HEADER);
                let payload = message.payload();
                if message.sequence_number() == self.sequence {
                    match message.message_type() {
                        NLMSG_DONE => return Ok(()),
                        NLMSG_ERROR => return error_of(payload),
                        kind if kind == self.family && payload.len() >= GENL_HEADER => {
                            on_answer(&payload[GENL_HEADER..]);
                            if !dump {
                                return Ok(());
                            }
                        }
                        _ => {}
                    }
                }
                // An answer to an earlier request that timed out is skipped.
                datagram = datagram.get((size + 3) & !3..).unwrap_or_default();
            }
        }
    }

    /// The request in `self.request`: the netlink header, the generic netlink header
    /// (`command`, version 0) and one attribute; its length.
    fn write_request(&mut self, command: u8, dump: bool, kind: u16, value: &[u8]) -> usize {
        let attribute = NETLINK_HEADER + GENL_HEADER;
        let length = attribute + ((4 + value.len() + 3) & !3);
        let request = &mut self.request[..length];
        request.fill(0);
        let mut header = NetlinkHeader::default();
        header.length = length as u32;
        header.message_type = self.family;
        header.flags = NLM_F_REQUEST | if dump { NLM_F_DUMP } else { 0 };
        header.sequence_number = self.sequence;
        header.emit(&mut request[..NETLINK_HEADER]);
        request[NETLINK_HEADER] = command;
        let mut nla = NlaBuffer::new(&mut request[attribute..]);
        nla.set_kind(kind);
        nla.set_length((4 + value.len()) as u16);
        nla.value_mut()[..value.len()].copy_from_slice(value);
        length
    }
}

/// An `NLMSG_ERROR`: 0 acknowledges, a negative errno refuses.
fn error_of(payload: &[u8]) -> io::Result<()> {
    let code = payload.get(..4).map_or(0, |bytes| {
        i32::from_ne_bytes(bytes.try_into().unwrap_or([0; 4]))
    });
    match code {
        0 => Ok(()),
        code => Err(io::Error::from_raw_os_error(-code)),
    }
}

/// The value of attribute `kind` in a list of attributes.
pub(super) fn find(attributes: &[u8], kind: u16) -> Option<&[u8]> {
    NlasIterator::new(attributes)
        .map_while(Result::ok)
        .find(|nla| nla.kind() & netlink_packet_core::NLA_TYPE_MASK == kind)
        .map(|nla| {
            let end = usize::from(nla.length());
            &nla.into_inner()[netlink_packet_core::NLA_HEADER_SIZE..end]
        })
}

/// An interface's answer into `out` (SSID, frequency); whether it is a station (a
/// client of an access point, not one itself).
pub(super) fn interface(attributes: &[u8], out: &mut Wifi) -> bool {
    if let Some(ssid) = find(attributes, NL80211_ATTR_SSID) {
        let ssid = &ssid[..ssid.len().min(SSID_MAX)];
        out.ssid.push_str(&String::from_utf8_lossy(ssid));
    }
    out.frequency_mhz = find(attributes, NL80211_ATTR_WIPHY_FREQ).and_then(|v| parse_u32(v).ok());
    find(attributes, NL80211_ATTR_IFTYPE).and_then(|v| parse_u32(v).ok())
        == Some(NL80211_IFTYPE_STATION)
}

/// A station's signal in dBm: the average over recent frames, else the last frame's.
pub(super) fn station_signal(attributes: &[u8]) -> Option<i8> {
    let info = find(attributes, NL80211_ATTR_STA_INFO)?;
    [NL80211_STA_INFO_SIGNAL_AVG, NL80211_STA_INFO_SIGNAL]
        .into_iter()
        .find_map(|kind| Some(*find(info, kind)?.first()? as i8))
}

/// The address of a station entry: for a client, its access point's BSSID.
pub(super) fn station_address(attributes: &[u8]) -> Option<[u8; 6]> {
    find(attributes, NL80211_ATTR_MAC)?
        .get(..6)?
        .try_into()
        .ok()
}

/// The SSID of a scan result when it is the access point `bssid`'s, as lossy UTF-8.
pub(super) fn scanned_ssid(attributes: &[u8], bssid: &[u8; 6]) -> Option<String> {
    let bss = find(attributes, NL80211_ATTR_BSS)?;
    if find(bss, NL80211_BSS_BSSID)? != bssid {
        return None;
    }
    let mut elements = find(bss, NL80211_BSS_INFORMATION_ELEMENTS)?;
    // Elements are (id, length, bytes) one after another.
    while let [id, length, rest @ ..] = elements {
        let value = rest.get(..usize::from(*length))?;
        if *id == ELEMENT_SSID {
            let ssid = &value[..value.len().min(SSID_MAX)];
            return Some(String::from_utf8_lossy(ssid).into_owned());
        }
        elements = &rest[value.len()..];
    }
    None
}
