import { EndpointPage } from './EndpointPage';
import { ENDPOINTS } from './endpoints';

const endpoint = ENDPOINTS.find((e) => e.route === 'endpoints/get-pool-data');

/** /endpoints/get-pool-data */
export default function GetPoolDataPage() {
  if (!endpoint) throw new Error('endpoints/get-pool-data is missing from ENDPOINTS');
  return <EndpointPage endpoint={endpoint} />;
}
