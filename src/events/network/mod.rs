//! The network as rtnetlink tells it: links, their addresses and the default routes,
//! kept up to date from the kernel's events ([`netlink`] reads them on the main loop).
//! The state is core and knows nothing of the socket; [`NetworkState::primary`] says
//! which interface carries the traffic, as the `network` module shows it.

#[cfg(feature = "app")]
mod from_netlink;
#[cfg(feature = "app")]
pub mod netlink;
#[cfg(test)]
mod tests;

use std::net::IpAddr;
use std::path::Path;

/// One network interface.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Link {
    pub index: u32,
    /// `wlan0`, `enp3s0`; as the kernel names it (no more than 15 bytes).
    pub name: String,
    /// Administratively up (IFF_UP).
    pub up: bool,
    /// The driver has a carrier (IFF_LOWER_UP): a cable, an associated access point.
    pub carrier: bool,
    pub loopback: bool,
    /// A Wi-Fi interface (its sysfs `uevent` says `DEVTYPE=wlan`).
    pub wireless: bool,
}

/// An address of an interface.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Address {
    pub index: u32,
    pub address: IpAddr,
    pub prefix: u8,
}

/// A default route (destination `0.0.0.0/0` or `::/0`) of the main table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DefaultRoute {
    /// The interface it leaves by.
    pub index: u32,
    pub gateway: Option<IpAddr>,
    /// Lower wins.
    pub metric: u32,
    pub ipv6: bool,
}

/// A change the kernel announced (or a line of a dump).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    Link(Link),
    LinkGone(u32),
    Address(Address),
    AddressGone(Address),
    Route(DefaultRoute),
    RouteGone(DefaultRoute),
}

/// Links, addresses and default routes, in the kernel's order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NetworkState {
    pub links: Vec<Link>,
    pub addresses: Vec<Address>,
    pub routes: Vec<DefaultRoute>,
    /// Every Wi-Fi radio is blocked by rfkill (a switch, airplane mode), as sysfs said at
    /// the last change.
    pub wifi_blocked: bool,
}

/// How the machine is connected, as the module's classes name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Connection {
    Wifi,
    Ethernet,
    /// Up with a carrier, but without an address or a default route through it.
    Linked,
    Disconnected,
    /// Disconnected while rfkill blocks the Wi-Fi radios (Waybar's `disabled`).
    Disabled,
}

impl Connection {
    pub fn name(self) -> &'static str {
        match self {
            Connection::Wifi => "wifi",
            Connection::Ethernet => "ethernet",
            Connection::Linked => "linked",
            Connection::Disconnected => "disconnected",
            Connection::Disabled => "disabled",
        }
    }
}

/// The interface the module shows, and how it is connected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Primary<'a> {
    pub connection: Connection,
    /// `None` when disconnected.
    pub link: Option<&'a Link>,
    pub route: Option<&'a DefaultRoute>,
}

impl NetworkState {
    pub fn apply(&mut self, change: Change) {
        match change {
            Change::Link(link) => {
                // The kernel flushes a downed link's IPv4 routes without a word
                // (no RTM_DELROUTE): forget them here as it does.
                if !link.up {
                    self.routes.retain(|r| r.index != link.index);
                }
                match self.links.iter_mut().find(|l| l.index == link.index) {
                    Some(known) => *known = link,
                    None => self.links.push(link),
                }
            }
            Change::LinkGone(index) => {
                self.links.retain(|l| l.index != index);
                self.addresses.retain(|a| a.index != index);
                self.routes.retain(|r| r.index != index);
            }
            Change::Address(address) => {
                if !self.addresses.contains(&address) {
                    self.addresses.push(address);
                }
            }
            Change::AddressGone(address) => self.addresses.retain(|a| *a != address),
            Change::Route(route) => {
                // A default route is the kernel's by family and metric: a new one (`ip
                // route replace`) takes the place of the one it replaced.
                self.routes
                    .retain(|r| !(r.ipv6 == route.ipv6 && r.metric == route.metric));
                self.routes.push(route);
            }
            Change::RouteGone(route) => self.routes.retain(|r| !same_route(r, &route)),
        }
    }

    pub fn link(&self, index: u32) -> Option<&Link> {
        self.links.iter().find(|l| l.index == index)
    }

    /// The interface the traffic leaves by: the up link of the best default route (IPv4
    /// before IPv6, then the lowest metric), linked while it has no address. Without
    /// one, the first link other than loopback that is up with a carrier (linked), else
    /// none (disconnected). `pinned` (the config's `interface`) limits it to that one.
    pub fn primary(&self, pinned: Option<&str>) -> Primary<'_> {
        let usable = |link: &&Link| pinned.is_none_or(|pattern| matches(pattern, &link.name));
        let best = self
            .routes
            .iter()
            .filter_map(|route| Some((route, self.link(route.index).filter(usable)?)))
            .filter(|(_, link)| link.up && link.carrier)
            .min_by_key(|(route, _)| (route.ipv6, route.metric));
        if let Some((route, link)) = best {
            let connection = match (link.wireless, self.addresses_of(link.index).next()) {
                (_, None) => Connection::Linked,
                (true, Some(_)) => Connection::Wifi,
                (false, Some(_)) => Connection::Ethernet,
            };
            return Primary {
                connection,
                link: Some(link),
                route: Some(route),
            };
        }
        let linked = self
            .links
            .iter()
            .filter(usable)
            .find(|l| l.up && l.carrier && !l.loopback);
        // Blocked radios explain the lack of a connection, unless the interface asked
        // for is a wired one (a cable pulled is not airplane mode).
        let wired_pinned = pinned.is_some_and(|pattern| {
            self.links
                .iter()
                .any(|l| matches(pattern, &l.name) && !l.wireless)
        });
        Primary {
            connection: match linked {
                Some(_) => Connection::Linked,
                None if self.wifi_blocked && !wired_pinned => Connection::Disabled,
                None => Connection::Disconnected,
            },
            link: linked,
            route: None,
        }
    }

    /// The addresses of interface `index`, IPv4 first.
    pub fn addresses_of(&self, index: u32) -> impl Iterator<Item = &Address> {
        let of = move |v4: bool| {
            self.addresses
                .iter()
                .filter(move |a| a.index == index && a.address.is_ipv4() == v4)
        };
        of(true).chain(of(false))
    }
}

/// `DEVTYPE=wlan` in the link's sysfs `uevent`. A kernel name holds no `/`.
pub fn is_wireless(sys: &Path, name: &str) -> bool {
    if name.is_empty() || name.contains('/') || name.starts_with('.') {
        return false;
    }
    let uevent = sys.join("class/net").join(name).join("uevent");
    std::fs::read_to_string(uevent).is_ok_and(|text| text.lines().any(|l| l == "DEVTYPE=wlan"))
}

/// Whether rfkill blocks every Wi-Fi radio (`class/rfkill/*/type` is `wlan`, and its
/// `soft` or `hard` is 1): false without one.
pub fn wifi_radios_blocked(sys: &Path) -> bool {
    let Ok(entries) = std::fs::read_dir(sys.join("class/rfkill")) else {
        return false;
    };
    let read = |dir: &Path, name: &str| std::fs::read_to_string(dir.join(name)).unwrap_or_default();
    let mut radios = entries
        .flatten()
        .map(|entry| entry.path())
        .filter(|dir| read(dir, "type").trim() == "wlan")
        .peekable();
    radios.peek().is_some()
        && radios.all(|dir| read(&dir, "soft").trim() == "1" || read(&dir, "hard").trim() == "1")
}

/// Whether `name` matches `pattern`, where `*` stands for any run of characters
/// (`wlp2*`, as Waybar's `interface` takes).
fn matches(pattern: &str, name: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == name,
        Some((head, rest)) => {
            let Some(tail) = name.strip_prefix(head) else {
                return false;
            };
            (0..=tail.len())
                .filter(|&at| tail.is_char_boundary(at))
                .any(|at| matches(rest, &tail[at..]))
        }
    }
}

/// The same route for the kernel: same interface, family, gateway and metric.
fn same_route(a: &DefaultRoute, b: &DefaultRoute) -> bool {
    a.index == b.index && a.ipv6 == b.ipv6 && a.gateway == b.gateway && a.metric == b.metric
}

impl super::EventState for NetworkState {
    const KEY: &'static str = "Network";
    type Command = std::convert::Infallible;
    type Settings = ();
    #[cfg(feature = "app")]
    type Watch = netlink::NetworkWatch;
}
