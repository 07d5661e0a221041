//! rtnetlink messages (parsed by netlink-packet-route) as the state's [`Change`]s: links
//! with their flags, global addresses, and the main table's default unicast routes.
//! Anything else is no change.

use std::net::IpAddr;
use std::path::Path;

use netlink_packet_route::address::{AddressAttribute, AddressMessage, AddressScope};
use netlink_packet_route::link::{LinkAttribute, LinkFlags, LinkMessage};
use netlink_packet_route::route::{
    RouteAddress, RouteAttribute, RouteHeader, RouteMessage, RouteType,
};
use netlink_packet_route::{AddressFamily, RouteNetlinkMessage};

use super::{is_wireless, Address, Change, DefaultRoute, Link};

/// The change `message` makes; `sys` is where to look whether a link is Wi-Fi.
pub fn change(message: RouteNetlinkMessage, sys: &Path) -> Option<Change> {
    match message {
        RouteNetlinkMessage::NewLink(link) => Some(Change::Link(link_of(&link, sys)?)),
        RouteNetlinkMessage::DelLink(link) => Some(Change::LinkGone(link.header.index)),
        RouteNetlinkMessage::NewAddress(address) => Some(Change::Address(address_of(&address)?)),
        RouteNetlinkMessage::DelAddress(address) => {
            Some(Change::AddressGone(address_of(&address)?))
        }
        RouteNetlinkMessage::NewRoute(route) => Some(Change::Route(default_route(&route)?)),
        RouteNetlinkMessage::DelRoute(route) => Some(Change::RouteGone(default_route(&route)?)),
        _ => None,
    }
}

fn link_of(message: &LinkMessage, sys: &Path) -> Option<Link> {
    let name = message.attributes.iter().find_map(|a| match a {
        LinkAttribute::IfName(name) => Some(name.clone()),
        _ => None,
    })?;
    let flags = message.header.flags;
    Some(Link {
        index: message.header.index,
        wireless: is_wireless(sys, &name),
        name,
        up: flags.contains(LinkFlags::Up),
        carrier: flags.contains(LinkFlags::LowerUp),
        loopback: flags.contains(LinkFlags::Loopback),
    })
}

/// A global address (not link-local `fe80::`, not loopback's host scope).
fn address_of(message: &AddressMessage) -> Option<Address> {
    if message.header.scope != AddressScope::Universe {
        return None;
    }
    // IFA_LOCAL is the interface's own address on a point-to-point link, where
    // IFA_ADDRESS is the peer's; elsewhere only IFA_ADDRESS is sent.
    let find = |local: bool| {
        message.attributes.iter().find_map(|a| match (a, local) {
            (AddressAttribute::Local(ip), true) | (AddressAttribute::Address(ip), false) => {
                Some(*ip)
            }
            _ => None,
        })
    };
    let address = find(true).or_else(|| find(false))?;
    Some(Address {
        index: message.header.index,
        address,
        prefix: message.header.prefix_len,
    })
}

/// A default unicast route of the main table, with the interface it leaves by.
fn default_route(message: &RouteMessage) -> Option<DefaultRoute> {
    let header = &message.header;
    let table = message
        .attributes
        .iter()
        .find_map(|a| match a {
            RouteAttribute::Table(table) => Some(*table),
            _ => None,
        })
        .unwrap_or(u32::from(header.table));
    if header.destination_prefix_length != 0
        || header.kind != RouteType::Unicast
        || table != u32::from(RouteHeader::RT_TABLE_MAIN)
    {
        return None;
    }
    let ipv6 = match header.address_family {
        AddressFamily::Inet => false,
        AddressFamily::Inet6 => true,
        _ => return None,
    };
    let (mut index, mut gateway, mut metric) = (None, None, 0);
    for attribute in &message.attributes {
        match attribute {
            RouteAttribute::Oif(oif) => index = Some(*oif),
            RouteAttribute::Gateway(RouteAddress::Inet(ip)) => gateway = Some(IpAddr::V4(*ip)),
            RouteAttribute::Gateway(RouteAddress::Inet6(ip)) => gateway = Some(IpAddr::V6(*ip)),
            RouteAttribute::Priority(priority) => metric = *priority,
            // A multipath route: the first hop's interface stands for it.
            RouteAttribute::MultiPath(hops) => {
                index = index.or(hops.first().map(|hop| hop.interface_index));
            }
            _ => {}
        }
    }
    Some(DefaultRoute {
        index: index?,
        gateway,
        metric,
        ipv6,
    })
}
