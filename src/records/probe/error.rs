//! Why the probe could not load, in words that name the fix.

use std::path::Path;

/// The oldest kernel with everything the probe needs (task iterator, ring buffer, CAP_BPF).
const MIN_KERNEL: (u32, u32) = (5, 8);
const VMLINUX_BTF: &str = "/sys/kernel/btf/vmlinux";

#[derive(Debug, thiserror::Error)]
pub enum ProbeError {
    #[error("the kernel is {release}; ringbar's BPF probe needs Linux 5.8 or newer")]
    KernelTooOld { release: String },
    #[error("the kernel has no BTF type information ({VMLINUX_BTF} is missing); it needs CONFIG_DEBUG_INFO_BTF=y")]
    NoBtf,
    #[error(
        "permission denied loading the BPF probe; it needs CAP_BPF and CAP_PERFMON. \
         Fix: sudo setcap cap_bpf,cap_perfmon+ep {exe}"
    )]
    NoPermission { exe: String },
    #[error(
        "the probe service at {path} cannot serve this bar ({reason}), and this ringbar has no \
         CAP_BPF and CAP_PERFMON of its own"
    )]
    ServiceUnavailable { path: String, reason: String },
    #[error("the BPF probe failed to {stage}: {source} (RINGBAR_LOG=debug shows libbpf's log)")]
    Failed {
        stage: &'static str,
        #[source]
        source: libbpf_rs::Error,
    },
}

impl ProbeError {
    pub(super) fn from_libbpf(stage: &'static str, source: libbpf_rs::Error) -> Self {
        if source.kind() == libbpf_rs::ErrorKind::PermissionDenied {
            let exe = std::env::current_exe()
                .map(|p| p.display().to_string())
                .unwrap_or_else(|_| "/usr/local/bin/ringbar".into());
            return ProbeError::NoPermission { exe };
        }
        ProbeError::Failed { stage, source }
    }
}

/// Checks what can be checked before loading: kernel version and BTF.
pub fn preflight() -> Result<(), ProbeError> {
    let release = kernel_release();
    if let Some(version) = parse_release(&release) {
        if version < MIN_KERNEL {
            return Err(ProbeError::KernelTooOld { release });
        }
    }
    if !Path::new(VMLINUX_BTF).exists() {
        return Err(ProbeError::NoBtf);
    }
    Ok(())
}

fn kernel_release() -> String {
    std::fs::read_to_string("/proc/sys/kernel/osrelease")
        .map(|s| s.trim().to_owned())
        .unwrap_or_default()
}

/// "6.18.44-fc-v669" → (6, 18).
fn parse_release(release: &str) -> Option<(u32, u32)> {
    let mut parts = release.split(|c: char| !c.is_ascii_digit());
    let major = parts.next()?.parse().ok()?;
    let minor = parts.next()?.parse().ok()?;
    Some((major, minor))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kernel_releases_parse() {
        assert_eq!(parse_release("6.18.44-fc-v669"), Some((6, 18)));
        assert_eq!(parse_release("5.4.0-150-generic"), Some((5, 4)));
        assert_eq!(parse_release("6.1"), Some((6, 1)));
        assert_eq!(parse_release("garbage"), None);
        assert!(parse_release("5.4.0").expect("parses") < MIN_KERNEL);
    }

    #[test]
    fn the_permission_message_names_the_fix() {
        let msg = ProbeError::NoPermission {
            exe: "/usr/bin/ringbar".into(),
        }
        .to_string();
        assert!(
            msg.contains("sudo setcap cap_bpf,cap_perfmon+ep /usr/bin/ringbar"),
            "{msg}"
        );
    }
}
