import { EndpointPage } from './EndpointPage';
import { ENDPOINTS } from './endpoints';

const endpoint = ENDPOINTS.find((e) => e.route === 'endpoints/get-user-data');

/** /endpoints/get-user-data */
export default function GetUserDataPage() {
  if (!endpoint) throw new Error('endpoints/get-user-data is missing from ENDPOINTS');
  return <EndpointPage endpoint={endpoint} />;
}
