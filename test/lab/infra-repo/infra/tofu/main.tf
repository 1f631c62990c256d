# Lab placeholder of the tofu layer: one VM per dev node. Never applied in the lab.
terraform {
  required_providers {
    proxmox = {
      source  = "telmate/proxmox"
      version = "3.0.1-rc4"
    }
  }
}

variable "nodes" {
  type = map(object({ ip = string, vmid = number }))
  default = {
    "k3s-dev-1" = { ip = "192.168.1.41", vmid = 411 }
    "k3s-dev-2" = { ip = "192.168.1.42", vmid = 412 }
    "k3s-dev-3" = { ip = "192.168.1.43", vmid = 413 }
  }
}

resource "proxmox_vm_qemu" "k3s_node" {
  for_each    = var.nodes
  name        = each.key
  vmid        = each.value.vmid
  target_node = "pve"
  clone       = "debian-12-cloudinit"
  cores       = 4
  memory      = 8192
  ipconfig0   = "ip=${each.value.ip}/24,gw=192.168.1.1"
}

output "primary_node_ip" {
  value = var.nodes["k3s-dev-1"].ip
}
