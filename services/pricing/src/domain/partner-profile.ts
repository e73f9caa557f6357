export interface Contact {
  id: string;
  name: string;
  contactEmail: string | null;
}

export interface PartnerProfile {
  id: string;
  name: string;
  contactEmail: string | null;
  financingPartner: Contact | null;
  distributionHub: (Contact & { connected: boolean }) | null;
  paymentIntervals: string[];
}
